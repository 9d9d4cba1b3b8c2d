// kopt eval FILE [--kernel NAME] [--variant UNIT.cu [--launch G:B[:S]]] [--json]
//               [--no-profile] -- FLAGS
// Measures an annotated kernel on the GPU (timing, and one profiled launch's
// hardware counters) and, given a variant, verifies and times it against the
// original.
#include "driver/Diagnostics.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/optimize/KernelOptimization.h"
#include "driver/optimize/WorkloadFromKernel.h"
#include "driver/optimize/WorkloadFromRecording.h"
#include "evaluator/Evaluator.h"
#include "evaluator/worker/WorkerProtocol.h"
#include "memory/cache/CacheLayout.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

namespace kopt::driver {

namespace {
constexpr const char *Usage =
    "eval FILE [--kernel NAME] [--variant UNIT.cu [--launch GRID:BLOCK[:SMEM]]] [--json] "
    "[--no-profile] [--] [COMPILER FLAGS]";

// "65536:256" or "64,64:16,16:4096" (x[,y[,z]] for grid and block).
llvm::Expected<evaluator::LaunchGeometry> parseLaunch(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ':');
  if (Parts.size() < 2 || Parts.size() > 3)
    return llvm::createStringError(
        "--launch takes GRID:BLOCK[:SMEM], e.g. 4096:256 or 64,64:16,16");
  evaluator::LaunchGeometry L;
  auto Dims = [](llvm::StringRef S, std::array<uint32_t, 3> &Out) {
    llvm::SmallVector<llvm::StringRef, 3> Items;
    S.split(Items, ',');
    if (Items.empty() || Items.size() > 3)
      return false;
    for (size_t I = 0; I < Items.size(); ++I)
      if (Items[I].trim().getAsInteger(10, Out[I]) || Out[I] == 0)
        return false;
    return true;
  };
  if (!Dims(Parts[0], L.Grid) || !Dims(Parts[1], L.Block) ||
      (Parts.size() == 3 && Parts[2].trim().getAsInteger(10, L.SharedBytes)))
    return llvm::createStringError("--launch '%s' is not GRID:BLOCK[:SMEM]", Text.str().c_str());
  return L;
}

void printBaseline(const evaluator::Baseline &B) {
  const auto &R = B.Resources;
  llvm::outs() << "  original: " << llvm::format("%.4f", B.Timing.MedianMs) << " ms median [p20 "
               << llvm::format("%.4f", B.Timing.P20Ms) << ", p80 "
               << llvm::format("%.4f", B.Timing.P80Ms) << "], " << B.Timing.Samples
               << " samples; compiled by " << B.Compile.Compiler << " in "
               << llvm::format("%.2f", B.Compile.Seconds) << " s\n"
               << "            " << R.Registers << " registers, " << R.StaticSharedBytes
               << " B shared, " << R.LocalBytes << " B local, theoretical occupancy "
               << llvm::format("%.0f", R.TheoreticalOccupancy * 100) << "%; buffers moved at ~"
               << llvm::format("%.0f", B.AchievedDramGBs) << " GB/s ("
               << llvm::format("%.0f", B.Device.peakDramGBs() > 0
                                           ? 100 * B.AchievedDramGBs / B.Device.peakDramGBs()
                                           : 0.0)
               << "% of " << llvm::format("%.0f", B.Device.peakDramGBs()) << " GB/s peak)\n";
}

// The original's hardware counters, one per line, or why there are none.
void printProfile(const evaluator::Profile &P) {
  if (!P.available()) {
    llvm::outs() << "  profile:  " << P.Error << "\n";
    return;
  }
  llvm::outs() << "  profile:  one launch, CUPTI range profiler\n";
  for (const auto &[Name, Value] : P.Metrics)
    llvm::outs() << "            " << llvm::format("%-64s %14.2f", Name.c_str(), Value) << "\n";
  if (!P.Skipped.empty())
    llvm::outs() << "            (not on this GPU: " << llvm::join(P.Skipped, ", ") << ")\n";
}

// Chain: the launches each verification chained (Baseline::Chain).
void printOutcome(const evaluator::VariantOutcome &O, unsigned Chain) {
  llvm::outs() << "  variant:  " << spelling(O.Result);
  if (O.Result == evaluator::Verdict::Faster || O.Result == evaluator::Verdict::NotFaster)
    llvm::outs() << " (verified on " << O.SeedsVerified << " input sets"
                 << (Chain > 1 ? ", " + std::to_string(Chain) + "-launch chains" : std::string())
                 << ", worst element at " << llvm::format("%.2f", O.WorstToleranceRatio)
                 << " of the tolerance); " << llvm::format("%.4f", O.Variant.MedianMs) << " ms vs "
                 << llvm::format("%.4f", O.Original.MedianMs)
                 << " ms: " << llvm::format("%.2f", O.Speedup)
                 << "x, p = " << llvm::format("%.2g", O.PValue);
  if (!O.Detail.empty())
    llvm::outs() << "\n            " << O.Detail;
  llvm::outs() << "\n";
  if (!O.Weighted.is_null())
    llvm::outs() << "  weighted: " << describeWeighted(O.Weighted) << "\n";
}

nlohmann::json outcomeJson(const evaluator::VariantOutcome &O) {
  return {{"verdict", spelling(O.Result).str()},
          {"detail", O.Detail},
          {"compiler", O.Compile.Compiler},
          {"compile_seconds", O.Compile.Seconds},
          {"resources", O.Resources},
          {"seeds_verified", O.SeedsVerified},
          {"worst_tolerance_ratio", O.WorstToleranceRatio},
          {"original", O.Original},
          {"variant", O.Variant},
          {"speedup", O.Speedup},
          {"p_value", O.PValue},
          {"weighted", O.Weighted}};
}
} // namespace

llvm::Error runEval(const std::vector<std::string> &Arguments) {
  std::vector<std::string> Args = Arguments;
  bool Json = takeFlag(Args, "json");
  bool NoProfile = takeFlag(Args, "no-profile");
  auto KernelName = takeOption(Args, "kernel");
  auto VariantFile = KernelName ? takeOption(Args, "variant") : KernelName.takeError();
  if (!KernelName || !VariantFile)
    return KernelName ? VariantFile.takeError() : KernelName.takeError();
  auto LaunchText = takeOption(Args, "launch");
  if (!LaunchText)
    return LaunchText.takeError();
  auto Cache = cacheConfigFor(Args); // Its recordings (kopt record).
  if (!Cache)
    return Cache.takeError();
  auto Loaded = loadSourceKernels(Args, Usage);
  if (!Loaded)
    return Loaded.takeError();
  auto Kernel = pickAnnotatedKernel(*Loaded, KernelName->value_or(""));
  if (!Kernel)
    return Kernel.takeError();
  std::vector<std::string> RecordingDirs = {memory::recordingsDir(Cache->UserDir)};
  if (Cache->ProjectDir)
    RecordingDirs.push_back(memory::recordingsDir(*Cache->ProjectDir));
  std::string RecordingWarning;
  std::vector<std::string> WorkloadNotes;
  auto W = workloadWithRecording(*Kernel, Loaded->File, RecordingDirs, &RecordingWarning, {},
                                 &WorkloadNotes);
  if (!RecordingWarning.empty())
    Reporter("kopt eval").warning(RecordingWarning);
  for (const std::string &Note : WorkloadNotes)
    Reporter("kopt eval").note(Note);
  if (!W) { // The workload's diagnostics name the pragma's file and line.
    writeToStderr(llvm::toString(W.takeError()) + "\n");
    return failWithStatus(1);
  }
  std::vector<std::string> Options = unitCompileOptions(Loaded->Flags, Loaded->File);

  std::string VariantCode;
  evaluator::LaunchGeometry VariantLaunch = W->Launch;
  if (*VariantFile) {
    auto Buffer = llvm::MemoryBuffer::getFile(**VariantFile);
    if (!Buffer)
      return llvm::createStringError("cannot read " + **VariantFile + ": " +
                                     Buffer.getError().message());
    VariantCode = (*Buffer)->getBuffer().str();
    if (*LaunchText) {
      auto L = parseLaunch(**LaunchText);
      if (!L)
        return L.takeError();
      VariantLaunch = *L;
    }
  }

  evaluator::EvaluatorOptions EvalOptions;
  EvalOptions.Profile = !NoProfile;
  auto Eval = evaluator::Evaluator::start(EvalOptions);
  if (!Eval)
    return Eval.takeError();
  const evaluator::DeviceInfo &Device = (*Eval)->device();
  if (!Json) {
    llvm::outs() << "kopt eval: " << Kernel->Name << " on " << Device.Name << " ("
                 << Device.smArch() << ")\n";
    if (!W->Recorded.empty())
      llvm::outs() << "  recorded: " << W->Recorded.size() << " distinct launches from "
                   << W->RecordingFile << "\n";
  }
  auto Base = (*Eval)->setOriginal(kernelSourceFor(*Kernel, Kernel->Unit.Text, Options), *W);
  if (!Base)
    return Base.takeError();
  nlohmann::json Out = {{"kernel", Kernel->Name},
                        {"device", Device},
                        {"workload", *W},
                        {"original",
                         {{"timing", Base->Timing},
                          {"resources", Base->Resources},
                          {"compiler", Base->Compile.Compiler},
                          {"achieved_dram_gbs", Base->AchievedDramGBs},
                          {"profile", Base->Counters},
                          {"chain", Base->Chain},
                          {"weighted", Base->Weighted}}}};
  if (std::string Why = shortenedChain(*W, *Base); !Why.empty())
    Reporter("kopt eval").warning(Why);
  if (!Json) {
    printBaseline(*Base);
    if (!Base->Weighted.is_null())
      llvm::outs() << "  weighted: " << describeWeighted(Base->Weighted) << "\n";
    printProfile(Base->Counters);
  }
  bool Unverified = false;
  if (*VariantFile) {
    auto Outcome = (*Eval)->evaluate(kernelSourceFor(*Kernel, VariantCode, Options), VariantLaunch);
    if (!Outcome)
      return Outcome.takeError();
    Out["variant"] = outcomeJson(*Outcome);
    if (!Json)
      printOutcome(*Outcome, Base->Chain);
    bool Verified = Outcome->Result == evaluator::Verdict::Faster ||
                    Outcome->Result == evaluator::Verdict::NotFaster;
    Unverified = !Verified;
  }
  if (Json)
    llvm::outs() << Out.dump(2) << "\n";
  // 3: the variant did not compile or verify.
  return Unverified ? failWithStatus(3) : llvm::Error::success();
}

} // namespace kopt::driver
