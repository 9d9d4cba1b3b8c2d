#include "driver/optimize/CacheVariantProvider.h"

#include "driver/optimize/CachedVariantRecheck.h"
#include "driver/optimize/KernelOptimization.h"
#include "driver/optimize/RecordingCoverage.h"
#include "memory/cache/BuildBudget.h"
#include "memory/cache/FileLock.h"
#include "memory/cache/MissExplanation.h"
#include "memory/experience/KernelFacts.h"
#include "support/BuildIdentity.h"
#include "support/Duration.h"

#include <llvm/Support/Format.h>

#include <chrono>
#include <cstdlib>

namespace kopt::driver {

namespace {
// "30m", "2m 5s", "45s": a budget as a person reads it.
std::string seconds(double S) {
  long Whole = long(S + 0.5);
  if (Whole >= 60 && Whole % 60 == 0)
    return std::to_string(Whole / 60) + "m";
  if (Whole >= 60)
    return std::to_string(Whole / 60) + "m " + std::to_string(Whole % 60) + "s";
  return std::to_string(Whole) + "s";
}

// The first clause of an error: "no NVIDIA driver: cannot load libcuda.so.1".
std::string shortReason(llvm::StringRef Why) { return Why.split(" (").first.str(); }

std::optional<memory::BuildBudget> buildBudgetOf(const TuContext &Tu, llvm::StringRef CacheDir) {
  std::optional<double> Total = parseDurationSeconds(Tu.Options.get("build_budget").Value);
  std::optional<std::string> Build = buildIdentity(std::getenv("KOPT_BUILD_ID"));
  if (!Total || !Build)
    return std::nullopt;
  return memory::BuildBudget(CacheDir.str(), *Build, *Total);
}
} // namespace

llvm::Expected<std::optional<ProvidedVariant>>
CacheVariantProvider::variantFor(const frontend::KernelSummary &K, const TuContext &Tu) {
  memory::CacheKey Key = cacheKeyFor(K, Tu.Arch, Tu.NvccFlags);
  report::BuildRecord Rec;
  Rec.File = K.HeaderFile.empty() ? Tu.SourcePath : K.HeaderFile;
  Rec.Line = K.Line;
  Rec.Kernel = K.Name;
  Rec.Kind = memory::kernelKind(K.Features);
  Rec.Arch = Tu.Arch;
  Rec.Key = Key.Digest;
  Rec.Date = utcNow();
  auto Record = [&](llvm::StringRef Outcome, const std::string &Detail,
                    const std::string &Reason = "") {
    Rec.Outcome = Outcome.str();
    Rec.Detail = Detail;
    Rec.Reason = Reason;
    Lookups.push_back(Rec);
  };
  std::string Warning, RemoteWarning;
  auto Hit = Cache.lookup(Key, &Warning, &Read, &RemoteWarning);
  if (!Hit)
    return Hit.takeError();
  if (!Warning.empty()) {
    AllHit = false; // Recorded, the warning would hide a repaired entry.
    Log.note(Warning);
  }
  if (!RemoteWarning.empty())
    Log.warning(RemoteWarning); // Once a remote a compile: it is then skipped.
  std::string Where = Tu.where(K);
  std::optional<memory::CacheEntry> Entry = std::move(*Hit);
  std::string Source = "cache";
  if (!Entry) {
    AllHit = false;
    // Said at once where the caches hold an entry for the kernel (a miss the
    // user may not expect), else only under --kopt-verbose.
    memory::MissExplanation Why = memory::explainMiss(Cache, K.Name, Key);
    std::string Miss = "cache miss: " + Why.text(K.Name);
    LastSkip.clear();
    auto Made = optimizeOnMiss(K, Tu, Key, Why.Nearest ? Miss : "");
    if (!Made)
      return Made.takeError();
    Entry = std::move(*Made);
    if (!Entry) {
      std::string Line = Where + Miss + "; compiling the original";
      Why.Nearest ? Log.note(Line) : Log.verboseNote(Line);
      std::string Reason = !LastSkip.empty() ? LastSkip
                           : Tu.Options.get("mode").Value != "optimize"
                               ? "mode " + Tu.Options.get("mode").Value
                               : "not optimized";
      Record(report::OutcomeMiss, Miss + "; compiled the original", Reason);
      return std::nullopt;
    }
    Source = "optimized now";
  }
  if (!Entry->Variant) {
    Log.verboseNote(Where + describeEntry(*Entry) + " (" + Source + ")");
    Record(Source == "cache" ? report::OutcomeHit : report::OutcomeOptimized,
           describeEntry(*Entry));
    return std::nullopt;
  }
  if (Source == "cache") {
    auto Usable = usableOnRecording(K, Tu, Key, *Entry);
    if (!Usable)
      return Usable.takeError();
    if (!*Usable) {
      auto Made = optimizeOnMiss(K, Tu, Key, "");
      if (!Made)
        return Made.takeError();
      if (!*Made || !(*Made)->Variant) {
        Log.note(Where + "compiling the original");
        Record(report::OutcomeMiss,
               "the cached variant failed on the new recording; compiled the original",
               "cached variant rejected on a new recording");
        return std::nullopt;
      }
      Entry = std::move(*Made);
      Source = "optimized now";
    }
  }
  Record(Source == "cache" ? report::OutcomeHit : report::OutcomeOptimized, describeEntry(*Entry));
  return ProvidedVariant{*Entry->Variant, describeEntry(*Entry) + " (" + Source + ")"};
}

llvm::Expected<memory::GpuLock> CacheVariantProvider::lockGpu(const std::string &Where) {
  std::string LockPath = memory::GpuLock::defaultPath();
  return memory::GpuLock::acquire(LockPath, [&] {
    Log.note(Where + "waiting for the GPU: another kopt process is optimizing on it (lock " +
             LockPath + ")");
  });
}

llvm::Expected<bool> CacheVariantProvider::usableOnRecording(const frontend::KernelSummary &K,
                                                             const TuContext &Tu,
                                                             const memory::CacheKey &Key,
                                                             memory::CacheEntry &Entry) {
  const std::vector<std::string> Dirs = {memory::recordingsDir(Cache.config().UserDir)};
  std::optional<RecordingCoverage> Recorded = recordingCoverage(K, Entry.Workloads, Dirs);
  if (!Recorded || Recorded->Coverage.covered())
    return true;
  AllHit = false; // A direct-mode replay would skip this check.
  std::string Where = Tu.where(K);
  std::string Why = Tu.Options.get("mode").Value != "optimize"
                        ? "mode " + Tu.Options.get("mode").Value
                        : cannotOptimize(Tu);
  if (!Why.empty()) {
    Log.note(Where + "cached variant used, not verified on the new recording (" +
             Recorded->Coverage.Why + "): " + Why);
    return true;
  }
  KernelJob Job; // No engine: the variant is only verified.
  Job.Kernel = &K;
  Job.File = Tu.SourcePath;
  Job.NvccFlags = Tu.NvccFlags;
  Job.ClangArgs = Tu.ClangArgs;
  Job.RecordingDirs = Dirs;
  auto Lock = lockGpu(Where);
  if (!Lock)
    return Lock.takeError();
  std::vector<uint32_t> Ids = Recorded->uncoveredIds();
  Log.note(Where + "re-verifying the cached variant on the new recording (" +
           std::to_string(Ids.size()) + " launches beyond those verified; " +
           Recorded->Coverage.Why + ")");
  auto Checked = recheckCachedVariant(Job, *Entry.Variant, Ids, *Eval);
  if (!Checked)
    return Checked.takeError();
  if (!Checked->passed()) {
    Log.note(Where + "cached variant rejected on the new recording (" +
             spelling(Checked->Outcome.Result).str() + ": " + Checked->Outcome.Detail +
             "): optimizing again");
    return false;
  }
  Entry.Workloads =
      memory::widened(Entry.Workloads, Recorded->Names, Recorded->Launches, Checked->VerifiedIds);
  std::string RemoteWarning;
  if (llvm::Error E = Cache.store(Key, Entry, &RemoteWarning))
    Log.note(Where + "re-verification not cached: " + llvm::toString(std::move(E)));
  if (!RemoteWarning.empty())
    Log.warning(RemoteWarning);
  Log.note(Where + "cached variant re-verified on " + std::to_string(Checked->VerifiedIds.size()) +
           " new recorded launches");
  return true;
}

std::string CacheVariantProvider::cannotOptimize(const TuContext &Tu) {
  if (!Eval && NoGpu.empty()) {
    auto Started = evaluator::Evaluator::start();
    if (Started)
      Eval = std::move(*Started);
    else
      NoGpu = shortReason(llvm::toString(Started.takeError()));
  }
  if (!Eval)
    return "no GPU here to optimize on (" + NoGpu + ")";
  // The evaluator compiles for its own device: what it verifies is for that architecture only.
  if (Eval->device().smArch() != Tu.Arch)
    return "this machine's GPU (" + Eval->device().Name + ") is " + Eval->device().smArch() +
           ", not " + Tu.Arch;
  return "";
}

llvm::Expected<std::optional<memory::CacheEntry>>
CacheVariantProvider::optimizeOnMiss(const frontend::KernelSummary &K, const TuContext &Tu,
                                     const memory::CacheKey &Key, const std::string &Miss) {
  if (Tu.Options.get("mode").Value != "optimize")
    return std::nullopt;
  std::string Where = Tu.where(K);
  // The engine first: an llm engine without a model or key is the user's to
  // fix, GPU or not.
  auto Job =
      jobFor(K, Tu.SourcePath, Tu.NvccFlags, Tu.ClangArgs, Tu.Options, Cache.config().UserDir);
  if (!Job)
    return Job.takeError();
  auto Skip = [&](const std::string &Why) -> std::optional<memory::CacheEntry> {
    ++NotOptimized[Why];
    LastSkip = Why;
    Log.verboseNote(Where + "not optimized: " + Why);
    return std::nullopt;
  };
  if (std::string Why = cannotOptimize(Tu); !Why.empty())
    return Skip(Why);
  std::optional<memory::BuildBudget> Budget = buildBudgetOf(Tu, Cache.config().UserDir);
  auto BudgetSpent = [&] {
    return "the build's optimization budget (" + Tu.Options.get("build_budget").Value +
           ", --kopt-build-budget) is spent";
  };
  if (Budget && Budget->remaining() <= 0)
    return Skip(BudgetSpent());
  // One kernel timed at a time on this GPU, whatever else the build runs.
  auto Lock = lockGpu(Where);
  if (!Lock)
    return Lock.takeError();
  if (Budget) { // Others may have spent it while this one waited.
    double Left = Budget->remaining();
    if (Left <= 0)
      return Skip(BudgetSpent());
    Job->MaxSeconds = Left;
  }
  Log.note(Where + "optimizing for " + Tu.Arch + " on " + Eval->device().Name + ", budget " +
           seconds(jobSeconds(*Job)) + " (engine " + Job->Engine + ")" +
           (Miss.empty() ? "" : "; " + Miss));
  auto Start = std::chrono::steady_clock::now();
  auto Result = optimizeForCache(*Job, *Eval, Tu.Options.verbose() ? &llvm::errs() : nullptr);
  if (Budget) {
    double Spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    if (llvm::Error E = Budget->spend(Spent))
      Log.verboseNote(Where + "build budget not updated: " + llvm::toString(std::move(E)));
  }
  if (!Result)
    return Result.takeError();
  Log.note(Where + describeEvaluations(Result->Entry));
  std::string RemoteWarning;
  if (llvm::Error E = Cache.store(Key, Result->Entry, &RemoteWarning))
    Log.note(Where + "not cached: " + llvm::toString(std::move(E)));
  if (!RemoteWarning.empty())
    Log.warning(RemoteWarning);
  return Result->Entry;
}

void CacheVariantProvider::finish(llvm::StringRef Source) {
  for (const auto &[Why, Count] : NotOptimized)
    Log.note(Source + ": " + llvm::Twine(Count) + " kernel" + (Count == 1 ? "" : "s") +
             " without a cached variant compiled as written: " + Why);
  NotOptimized.clear();
}

} // namespace kopt::driver
