#include "driver/KernelOptimization.h"

#include "clang-plugin/PragmaJson.h"
#include "driver/BaselineFacts.h"
#include "driver/WorkloadFromKernel.h"
#include "evaluator/WorkerProtocol.h"
#include "kopt/Version.h"
#include "memory/ExperienceStore.h"
#include "memory/KernelFacts.h"
#include "memory/SkillLibrary.h"
#include "support/Duration.h"
#include "support/InstallLayout.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <ctime>

namespace kopt::driver {

namespace {
std::string cudaVersion() {
  if (auto V = evaluator::nvrtcVersion())
    return *V;
  else
    llvm::consumeError(V.takeError());
  return std::to_string(CUDA_VERSION / 1000) + "." + std::to_string(CUDA_VERSION % 1000 / 10);
}

// The clauses without their position: moving a pragma does not change the result.
std::string canonicalClauses(const frontend::KernelSummary &K) {
  nlohmann::ordered_json J = frontend::pragmaToJson(K.Pragma);
  if (J.is_object()) {
    J.erase("line");
    J.erase("column");
  }
  return J.dump();
}

std::string utcNow() {
  std::time_t T = std::time(nullptr);
  char Buffer[32];
  std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&T));
  return Buffer;
}
memory::Outcome experienceOutcome(evaluator::Verdict V) {
  switch (V) {
  case evaluator::Verdict::Faster:
    return memory::Outcome::Faster;
  case evaluator::Verdict::NotFaster:
    return memory::Outcome::NotFaster;
  case evaluator::Verdict::CompileError:
    return memory::Outcome::CompileError;
  case evaluator::Verdict::Crashed:
  case evaluator::Verdict::TimedOut:
  case evaluator::Verdict::LaunchRejected:
    return memory::Outcome::Crashed;
  default:
    return memory::Outcome::Wrong;
  }
}

// The planner's ranking from long-term memory: the skills whose predicates hold
// for this kernel's static facts and measured metrics (the original's baseline
// profile), ordered by their record on kernels of its kind.
std::vector<std::string> rankedTransforms(const frontend::KernelSummary &K,
                                          const memory::ProfileMetrics &Metrics,
                                          const memory::ExperienceStore &Experience,
                                          llvm::raw_ostream *Log) {
  std::vector<std::string> Ranked;
  auto Library = memory::SkillLibrary::loadDirectory(InstallLayout::forRunningBinary().skillsDir());
  if (!Library) {
    if (Log)
      *Log << "  (no skill library: " << llvm::toString(Library.takeError()) << ")\n";
    else
      llvm::consumeError(Library.takeError());
    return Ranked;
  }
  std::vector<memory::SkillToggle> Toggles;
  if (K.Pragma && K.Pragma->Skills)
    Toggles = *K.Pragma->Skills;
  auto Selected = Library->select(memory::factsFor(K.Features, Metrics), Toggles, Experience,
                                  memory::kernelKind(K.Features));
  if (!Selected) {
    llvm::consumeError(Selected.takeError());
    return Ranked;
  }
  for (const memory::SelectedSkill &S : *Selected)
    if (S.S->Transform)
      Ranked.push_back(*S.S->Transform);
  return Ranked;
}
} // namespace

memory::CacheKey cacheKeyFor(const frontend::KernelSummary &Kernel, llvm::StringRef Arch,
                             const std::vector<std::string> &NvccFlags, llvm::StringRef File) {
  memory::CacheKeyInputs In;
  In.UnitHash = Kernel.Unit.Hash;
  In.Clauses = canonicalClauses(Kernel);
  In.Arch = Arch.str();
  In.CudaVersion = cudaVersion();
  // The unit compiles with these; include paths are left out (the unit's text
  // holds what the user's headers contribute).
  for (const std::string &O : unitCompileOptions(NvccFlags, File))
    if (!llvm::StringRef(O).starts_with("-I"))
      In.CodegenFlags.push_back(O);
  for (const std::string &F : NvccFlags)
    if (llvm::StringRef(F).starts_with("-O") || F == "-G" || F == "--device-debug")
      In.CodegenFlags.push_back(F);
  In.KoptVersion = Version;
  return memory::makeCacheKey(In);
}

KernelJob jobFor(const frontend::KernelSummary &Kernel, std::string File,
                 std::vector<std::string> NvccFlags, std::vector<std::string> ClangArgs,
                 const KoptOptions &Options, llvm::StringRef CacheDir) {
  KernelJob Job;
  Job.Kernel = &Kernel;
  Job.File = std::move(File);
  Job.NvccFlags = std::move(NvccFlags);
  Job.ClangArgs = std::move(ClangArgs);
  Job.Engine = Options.get("engine").Value;
  if (std::optional<double> Seconds = parseDurationSeconds(Options.get("budget").Value))
    Job.BudgetSeconds = *Seconds;
  Job.ExperiencePath = (CacheDir + "/experience.json").str();
  return Job;
}

llvm::Expected<KernelJobResult> optimizeForCache(const KernelJob &Job, evaluator::Evaluator &Eval,
                                                 llvm::raw_ostream *Log) {
  memory::ExperienceStore Experience = Job.ExperiencePath.empty()
                                           ? memory::ExperienceStore::inMemory()
                                           : memory::ExperienceStore::open(Job.ExperiencePath);
  const frontend::KernelSummary &K = *Job.Kernel;
  auto W = workloadFor(K, Job.File);
  if (!W)
    return W.takeError();
  agents::OptimizeRequest R;
  R.Kernel = &K;
  R.Work = *W;
  R.CompileOptions = unitCompileOptions(Job.NvccFlags, Job.File);
  R.ClangArgs = Job.ClangArgs;
  R.Budget.Seconds = Job.BudgetSeconds;
  R.Budget.Evaluations = Job.BudgetEvaluations;
  if (K.Pragma && K.Pragma->Budget) {
    if (K.Pragma->Budget->TimeSeconds)
      R.Budget.Seconds = *K.Pragma->Budget->TimeSeconds;
    if (K.Pragma->Budget->Evals)
      R.Budget.Evaluations = static_cast<unsigned>(*K.Pragma->Budget->Evals);
  }
  if (K.Pragma && K.Pragma->Skills)
    for (const frontend::SkillToggle &T : *K.Pragma->Skills)
      (T.Enabled ? R.Forced : R.Disabled).push_back(T.Id);
  R.Rank = [&](const evaluator::Baseline &B) {
    if (Log && !B.Counters.available())
      *Log << "  (no profile: " << B.Counters.Error << ")\n";
    return rankedTransforms(K, baselineMetrics(B, W->Launch), Experience, Log);
  };

  auto Progress = [&](const agents::Attempt &A, unsigned Index, double Best) {
    if (!Log)
      return;
    *Log << "  [" << llvm::format("%2u", Index) << " " << llvm::format("%6.1f", A.Seconds) << "s] "
         << llvm::format("%-48s", llvm::join(A.Steps, " + ").c_str()) << " "
         << llvm::format("%-15s", spelling(A.Result).str().c_str());
    if (A.Result == evaluator::Verdict::Faster || A.Result == evaluator::Verdict::NotFaster)
      *Log << llvm::format("%6.2fx", A.Speedup);
    else
      *Log << "       ";
    *Log << "  best " << llvm::format("%.2fx", Best) << "\n";
    Log->flush();
  };
  auto Optimized = agents::optimizeKernel(R, Eval, Progress);
  if (!Optimized)
    return Optimized.takeError();

  // Long-term memory learns from every attempt: its last step's skill, on this
  // kind of kernel and this device.
  std::string Kind = memory::kernelKind(K.Features);
  for (const agents::Attempt &A : Optimized->Trajectory) {
    llvm::StringRef Skill = llvm::StringRef(A.Steps.back()).split(':').first;
    if (llvm::Error E = Experience.record(Skill, Kind, Optimized->Original.Device.Name,
                                          experienceOutcome(A.Result), A.Speedup))
      llvm::consumeError(std::move(E)); // Experience is advisory; the result stands.
  }

  KernelJobResult Out;
  Out.Optimized = std::move(*Optimized);
  const agents::OptimizeResult &O = Out.Optimized;
  memory::CacheEntry &E = Out.Entry;
  E.KernelName = K.Name;
  E.Variant = O.Best;
  E.Speedup = O.Best ? O.BestOutcome.Speedup : 1.0;
  E.Timing = {{"original", O.Original.Timing}};
  if (O.Best) {
    E.Timing["variant"] = O.BestOutcome.Variant;
    E.Timing["original_interleaved"] = O.BestOutcome.Original;
    E.Timing["p_value"] = O.BestOutcome.PValue;
    E.Verification = {{"seeds", O.BestOutcome.SeedsVerified},
                      {"worst_tolerance_ratio", O.BestOutcome.WorstToleranceRatio}};
  }
  E.Trajectory = nlohmann::json::array();
  for (const agents::Attempt &A : O.Trajectory)
    E.Trajectory.push_back({{"steps", A.Steps},
                            {"hash", A.Hash},
                            {"verdict", spelling(A.Result).str()},
                            {"speedup", A.Speedup},
                            {"detail", A.Detail.substr(0, 300)}});
  E.Origin.Engine = Job.Engine;
  E.Origin.Device = O.Original.Device.Name;
  E.Origin.Date = utcNow();
  E.Origin.KoptVersion = Version;
  E.Origin.Skills = O.BestSteps;
  return Out;
}

std::string describeEntry(const memory::CacheEntry &E) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (E.Variant)
    OS << "verified variant (" << llvm::join(E.Origin.Skills, " + ") << "), "
       << llvm::format("%.2f", E.Speedup) << "x faster on " << E.Origin.Device;
  else
    OS << "no variant beat the original on " << E.Origin.Device;
  return Text;
}

} // namespace kopt::driver
