#include "driver/optimize/CachedVariantRecheck.h"

#include "agents/KernelOptimizer.h"
#include "driver/optimize/WorkloadFromKernel.h"
#include "driver/optimize/WorkloadFromRecording.h"

namespace kopt::driver {

bool Recheck::passed() const {
  using evaluator::Verdict;
  return Outcome.Result == Verdict::Faster || Outcome.Result == Verdict::NotFaster ||
         Outcome.Result == Verdict::Promising;
}

llvm::Expected<Recheck> recheckCachedVariant(const KernelJob &Job,
                                             const frontend::KernelVariant &Variant,
                                             llvm::ArrayRef<uint32_t> Ids,
                                             evaluator::VariantEvaluator &Eval) {
  const frontend::KernelSummary &K = *Job.Kernel;
  auto W = workloadWithRecording(K, Job.File, Job.RecordingDirs, nullptr, Ids);
  if (!W)
    return W.takeError();
  std::vector<std::string> Options = unitCompileOptions(Job.NvccFlags, Job.File);
  if (auto Base = Eval.setOriginal(kernelSourceFor(K, K.Unit.Text, Options), *W); !Base)
    return Base.takeError();
  auto Unit = agents::unitFromVariant(K, Variant, Job.ClangArgs);
  if (!Unit)
    return Unit.takeError();
  evaluator::VariantLaunch Launch(W->Launch);
  if (Variant.Launch) {
    auto Mapped = agents::variantLaunchFor(*W, *Variant.Launch);
    if (!Mapped)
      return Mapped.takeError();
    Launch = std::move(*Mapped);
  }
  auto Outcome = Eval.screen(kernelSourceFor(K, *Unit, Options), Launch);
  if (!Outcome)
    return Outcome.takeError();
  Recheck R;
  R.Outcome = std::move(*Outcome);
  for (const evaluator::RecordedLaunch &L : W->Recorded)
    R.VerifiedIds.push_back(L.Id);
  return R;
}

} // namespace kopt::driver
