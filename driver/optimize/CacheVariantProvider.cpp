#include "driver/optimize/CacheVariantProvider.h"

#include "clang-plugin/units/ApproximateMath.h"
#include "driver/optimize/CachedVariantRecheck.h"
#include "driver/optimize/KernelOptimization.h"
#include "driver/optimize/NumericsPolicy.h"
#include "driver/optimize/ProgramTimeShare.h"
#include "driver/optimize/RecordingCoverage.h"
#include "driver/optimize/WorkloadFromKernel.h"
#include "memory/cache/BuildBudget.h"
#include "memory/cache/MissExplanation.h"
#include "memory/cache/OnceWarnings.h"
#include "memory/experience/KernelFacts.h"
#include "support/BuildIdentity.h"
#include "support/Duration.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/FormatVariadic.h>

#include <chrono>
#include <cstdlib>

namespace kopt::driver {

namespace {
// The first clause of an error: "no NVIDIA driver: cannot load libcuda.so.1".
std::string shortReason(llvm::StringRef Why) { return Why.split(" (").first.str(); }

std::optional<memory::BuildBudget> buildBudgetOf(const TuContext &Tu, llvm::StringRef CacheDir) {
  std::optional<double> Total = parseDurationSeconds(Tu.Options.get("build_budget").Value);
  std::optional<std::string> Build = buildIdentity(std::getenv("KOPT_BUILD_ID"));
  if (!Total || !Build)
    return std::nullopt;
  return memory::BuildBudget(CacheDir.str(), *Build, *Total);
}

// The pragma's budget(time = ...): the user's word on K's time.
bool pragmaGivesTime(const frontend::KernelSummary &K) {
  return K.Pragma && K.Pragma->Budget && K.Pragma->Budget->TimeSeconds;
}
} // namespace

std::optional<std::string>
CacheVariantProvider::shareByProgramTime(const frontend::KernelSummary &K, const TuContext &Tu,
                                         KernelJob &Job) {
  if (pragmaGivesTime(K))
    return "";
  std::string Warning;
  std::optional<ProgramTimeShare> Share =
      programTimeShare(K, memory::recordingsDir(Cache.config().UserDir), &Warning);
  if (!Warning.empty() && memory::firstForEntry(Cache.config().UserDir, Warning))
    Log.warning(Warning + "; optimization time is not shared by the program's GPU time");
  const OptionValue &Build = Tu.Options.get("build_budget");
  const bool BuildBudgetSet = Build.Source != OptionSource::Default;
  if (Share && Share->Kernels == 1 && !BuildBudgetSet)
    return ""; // One kernel keeps its own budget: there is nothing to move.
  if (!Share) {
    if (BuildBudgetSet)
      Log.verboseNote(Tu.where(K) + "no recorded GPU time (kopt record): the build budget " +
                      "goes to compiles as they come");
    return std::nullopt;
  }
  std::optional<double> BuildSeconds;
  if (BuildBudgetSet)
    BuildSeconds = parseDurationSeconds(Build.Value);
  SharedPool Pool = sharedPool(*Share, BuildSeconds, Build.Value, Job.BudgetSeconds,
                               Tu.Options.get("budget").Value);
  Job.BudgetSeconds = Pool.Seconds * Share->Fraction;
  return " (" + describeShare(*Share, Pool) + ")";
}

void CacheVariantProvider::beginUnit(std::vector<const frontend::KernelSummary *> Kernels) {
  UnitKernels = std::move(Kernels);
  Asked.clear();
  UnitShares.clear();
}

bool CacheVariantProvider::hasOwnTime(const frontend::KernelSummary &K) {
  if (pragmaGivesTime(K))
    return true;
  return programTimeShare(K, memory::recordingsDir(Cache.config().UserDir), nullptr).has_value();
}

std::optional<UnitTimeShare> CacheVariantProvider::weighUnit(const frontend::KernelSummary &K,
                                                             const TuContext &Tu,
                                                             const KernelJob &Job,
                                                             evaluator::VariantEvaluator &Eval) {
  std::vector<const frontend::KernelSummary *> Missing;
  for (const frontend::KernelSummary *C : UnitKernels) {
    if (C != &K && (Asked[Tu.Arch].count(C) || !C->Pragma || hasOwnTime(*C)))
      continue;
    if (C != &K) {
      std::vector<memory::ManifestEntry> Unrecorded; // Not this compile's lookups.
      auto Hit = Cache.lookup(cacheKeyFor(*C, Tu.Arch, Tu.NvccFlags), nullptr, &Unrecorded);
      if (!Hit) {
        llvm::consumeError(Hit.takeError());
        continue; // Its own lookup says why.
      }
      if (*Hit)
        continue;
    }
    Missing.push_back(C);
  }
  if (Missing.size() < 2)
    return std::nullopt;
  Log.note(Tu.SourcePath + ": timing one launch of each of the " + std::to_string(Missing.size()) +
           " kernels that miss the cache, to share their optimization time");
  auto Start = std::chrono::steady_clock::now();
  const std::vector<std::string> Options = unitCompileOptions(Tu.NvccFlags, Tu.SourcePath);
  std::vector<UnitTimeShare::Weighed> Weighed;
  for (const frontend::KernelSummary *C : Missing) {
    auto Ms = [&]() -> llvm::Expected<double> {
      auto W = workloadFor(*C, Tu.SourcePath);
      if (!W)
        return W.takeError();
      return Eval.timeOnce(kernelSourceFor(*C, C->Unit.Text, Options), *W);
    }();
    if (!Ms) { // Its own search says why, in full.
      Log.verboseNote(Tu.where(*C) + "not timed, so not sharing the compile's time: " +
                      shortReason(llvm::toString(Ms.takeError())));
      continue;
    }
    Log.verboseNote(Tu.where(*C) + llvm::formatv("one launch {0:f3} ms", *Ms).str());
    Weighed.push_back({C, *Ms});
  }
  if (Weighed.size() < 2)
    return std::nullopt;
  double Took = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  const double Pool = Job.BudgetSeconds * double(Weighed.size()) - Took;
  return UnitTimeShare(std::move(Weighed), Pool);
}

std::string CacheVariantProvider::shareByUnitTime(const frontend::KernelSummary &K,
                                                  const TuContext &Tu, KernelJob &Job,
                                                  evaluator::VariantEvaluator &Eval) {
  auto [It, First] = UnitShares.try_emplace(Tu.Arch);
  if (First)
    It->second = weighUnit(K, Tu, Job, Eval);
  if (!It->second || !It->second->covers(&K))
    return "";
  const UnitTimeShare &Share = *It->second;
  Job.BudgetSeconds = Share.secondsFor(&K);
  return llvm::formatv(" ({0:f0}% of the {1} left to this compile's {2} kernels that miss the "
                       "cache, by one launch of each)",
                       100 * Share.fractionLeft(&K), formatDuration(Share.leftSeconds()),
                       Share.size())
      .str();
}

llvm::Expected<std::optional<memory::CacheEntry>>
CacheVariantProvider::lookup(const memory::CacheKey &Key) {
  std::string Warning, RemoteWarning;
  auto Hit = Cache.lookup(Key, &Warning, &Read, &RemoteWarning);
  if (!Hit)
    return Hit.takeError();
  if (!Warning.empty()) {
    AllHit = false; // Recorded, the warning would hide a repaired entry.
    // A corrupt entry is said once, not on every compile that meets it.
    if (memory::firstForEntry(Cache.config().UserDir, Warning))
      Log.warning(Warning + "; `kopt cache verify --fix` removes corrupt entries");
    else
      Log.verboseNote(Warning);
  }
  if (!RemoteWarning.empty())
    Log.warning(RemoteWarning); // Once a remote a compile: it is then skipped.
  return Hit;
}

std::string CacheVariantProvider::modelToOptimizeOn(const TuContext &Tu) {
  if (Tu.Options.get("mode").Value != "optimize" || !cannotOptimize(Tu).empty())
    return "";
  return Pools.at(Tu.Arch)->devices().front().Name;
}

llvm::Expected<std::optional<ProvidedVariant>>
CacheVariantProvider::variantFor(const frontend::KernelSummary &K, const TuContext &Tu) {
  Asked[Tu.Arch].insert(&K);
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
  auto Hit = lookup(Key);
  if (!Hit)
    return Hit.takeError();
  std::string Where = Tu.where(K);
  std::optional<memory::CacheEntry> Entry = std::move(*Hit);
  std::string Source = "cache";
  // Where kcc optimizes, it uses an entry made on the model of GPU it would
  // optimize on: the architecture's entry where it was made on that model,
  // else the model's own (docs/gpus.md, "GPU models").
  if (std::string Model = modelToOptimizeOn(Tu);
      !Model.empty() && Entry && Entry->Origin.Device != Model) {
    memory::CacheKey ModelKey = cacheKeyFor(K, Tu.Arch, Tu.NvccFlags, Model);
    auto ModelHit = lookup(ModelKey);
    if (!ModelHit)
      return ModelHit.takeError();
    if (*ModelHit) {
      Key = ModelKey;
      Entry = std::move(*ModelHit);
    } else {
      AllHit = false;
      std::string Miss = "cache miss: the entry for " + Tu.Arch + " was made on " +
                         Entry->Origin.Device + ", this GPU is " + Model;
      auto Made = optimizeOnMiss(K, Tu, Key, Miss);
      if (!Made)
        return Made.takeError();
      if (*Made) {
        Entry = std::move(*Made);
        Source = "optimized now";
      } else { // Not now (the budget, say): the other model's entry is still verified for Arch.
        Log.note(Where + Miss + "; using that entry");
      }
    }
  }
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
  if (Entry->Rejected) { // `kopt verify`: the program's own check has the last word.
    Log.note(Where + "the cached variant is not used: " + Entry->Rejected->Why + " (" +
             Entry->Rejected->Command + ")");
    Record(report::OutcomeMiss, "the cached variant is not used; compiled the original",
           Entry->Rejected->Why + " (" + Entry->Rejected->Command + ")");
    return std::nullopt;
  }
  if (Source == "cache") {
    // Made before the user was asked about approximate math (issue 31), or
    // under a fast_math setting this compile does not have.
    transform::TransformPolicy Policy = numericsPolicy(K, Tu.Options.fastMath(), Tu.NvccFlags);
    if (std::string Why = Policy.ApproximateMath ? ""
                                                 : frontend::approximationsNotAllowed(
                                                       K.Unit.Text, Entry->Variant->Code);
        !Why.empty()) {
      AllHit = false;
      Log.note(Where + "the cached variant is not used: " + Why);
      auto Made = optimizeOnMiss(K, Tu, Key, "");
      if (!Made)
        return Made.takeError();
      if (!*Made || !(*Made)->Variant) {
        Log.verboseNote(Where + "compiling the original");
        Record(report::OutcomeMiss, "the cached variant is not used; compiled the original", Why);
        return std::nullopt;
      }
      Entry = std::move(*Made);
      Source = "optimized now";
    }
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

llvm::Expected<GpuPool::Lease> CacheVariantProvider::lendGpu(const TuContext &Tu,
                                                             const std::string &Where) {
  auto Pool = Pools.find(Tu.Arch);
  if (Pool == Pools.end())
    return llvm::createStringError("no GPU of %s here", Tu.Arch.c_str());
  return Pool->second->lend([&](const std::string &Why) { Log.note(Where + Why); });
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
  auto Gpu = lendGpu(Tu, Where);
  if (!Gpu) {
    Log.note(Where + "cached variant used, not verified on the new recording (" +
             Recorded->Coverage.Why + "): the GPU could not be used (" +
             shortReason(llvm::toString(Gpu.takeError())) + ")");
    return true;
  }
  std::vector<uint32_t> Ids = Recorded->uncoveredIds();
  Log.note(Where + "re-verifying the cached variant on the new recording (" +
           std::to_string(Ids.size()) + " launches beyond those verified; " +
           Recorded->Coverage.Why + ") on " + Gpu->label());
  auto Checked = recheckCachedVariant(Job, *Entry.Variant, Ids, Gpu->evaluator());
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
  if (!Listed) {
    Listed = true;
    if (auto Devices = visibleDevices())
      Visible = std::move(*Devices);
    else
      NoGpu = shortReason(llvm::toString(Devices.takeError()));
  }
  if (!NoGpu.empty())
    return "no GPU here to optimize on (" + NoGpu + ")";
  if (Pools.count(Tu.Arch))
    return "";
  const OptionValue &Devices = Tu.Options.get("devices");
  auto Allowed = allowedDevices(Visible, Devices.Value);
  if (!Allowed)
    return llvm::toString(Allowed.takeError()) + " (" + Devices.Origin + ")";
  // The evaluator compiles for its own device: what it verifies is for that
  // architecture only.
  std::vector<evaluator::DeviceInfo> OfArch;
  std::vector<std::string> Others;
  for (const evaluator::DeviceInfo &D : *Allowed)
    if (D.smArch() == Tu.Arch)
      OfArch.push_back(D);
    else if (std::string Other = D.Name + " " + D.smArch();
             std::find(Others.begin(), Others.end(), Other) == Others.end())
      Others.push_back(Other);
  if (OfArch.empty())
    return "the GPU" + std::string(Allowed->size() == 1 ? "" : "s") + " " +
           (Devices.Value.empty() ? "here" : "allowed (" + Devices.Origin + ")") + " (" +
           llvm::join(Others, ", ") + ") " + (Allowed->size() == 1 ? "is" : "are") + " not " +
           Tu.Arch;
  // One model an architecture: an entry is for the model it was made on.
  const std::string Model = OfArch.front().Name;
  std::erase_if(OfArch, [&](const evaluator::DeviceInfo &D) { return D.Name != Model; });
  Pools[Tu.Arch] = std::make_unique<GpuPool>(std::move(OfArch), GpuPool::startEvaluator);
  return "";
}

llvm::Expected<std::optional<memory::CacheEntry>>
CacheVariantProvider::optimizeOnMiss(const frontend::KernelSummary &K, const TuContext &Tu,
                                     const memory::CacheKey &Key, const std::string &Miss) {
  if (Tu.Options.get("mode").Value == "queue")
    queueOnMiss(K, Tu, Key);
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
  // One kernel timed at a time on each GPU, whatever else the build runs.
  auto Gpu = lendGpu(Tu, Where);
  if (!Gpu)
    return Skip("the GPU could not be used (" + shortReason(llvm::toString(Gpu.takeError())) + ")");
  if (Budget) { // Others may have spent it while this one waited.
    double Left = Budget->remaining();
    if (Left <= 0)
      return Skip(BudgetSpent());
    Job->MaxSeconds = Left;
  }
  auto Start = std::chrono::steady_clock::now(); // The build budget counts the weighing too.
  std::optional<std::string> Share = shareByProgramTime(K, Tu, *Job);
  if (!Share)
    Share = shareByUnitTime(K, Tu, *Job, Gpu->evaluator());
  // The unit's share took it from the kernels' pool already.
  double Weighing = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  Log.note(Where + "optimizing for " + Tu.Arch + " on [" + Gpu->label() + "], budget " +
           formatDuration(jobSeconds(*Job)) + *Share + " (engine " + Job->Engine + ")" +
           (Miss.empty() ? "" : "; " + Miss));
  auto Result =
      optimizeForCache(*Job, Gpu->evaluator(), Tu.Options.verbose() ? &llvm::errs() : nullptr);
  double Spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  if (auto Unit = UnitShares.find(Tu.Arch); Unit != UnitShares.end() && Unit->second)
    Unit->second->spent(&K, Spent - Weighing);
  if (Budget)
    if (llvm::Error E = Budget->spend(Spent))
      Log.verboseNote(Where + "build budget not updated: " + llvm::toString(std::move(E)));
  if (!Result)
    return Result.takeError();
  Log.note(Where + describeEvaluations(Result->Entry));
  memory::CacheKey StoreKey =
      storeKeyFor(K, Tu.Arch, Tu.NvccFlags, Result->Entry.Origin.Device, Cache);
  std::string RemoteWarning;
  if (llvm::Error E = Cache.store(StoreKey, Result->Entry, &RemoteWarning))
    Log.note(Where + "not cached: " + llvm::toString(std::move(E)));
  if (!RemoteWarning.empty())
    Log.warning(RemoteWarning);
  return Result->Entry;
}

void CacheVariantProvider::queueOnMiss(const frontend::KernelSummary &K, const TuContext &Tu,
                                       const memory::CacheKey &Key) {
  if (!Queue)
    Queue = std::make_unique<QueueSubmitter>(Cache.config().UserDir, Cache.config().ReadOnly);
  QueueSubmitter::Outcome Out = Queue->submit(K, Tu, Key);
  if (Out.Warning)
    Log.warning(Out.Text + "; kernels that miss the cache are compiled as written");
  ++NotOptimized[Out.Text];
  LastSkip = Out.Text;
  Log.verboseNote(Tu.where(K) + Out.Text + (Out.JobId.empty() ? "" : " (job " + Out.JobId + ")"));
}

void CacheVariantProvider::finish(llvm::StringRef Source) {
  for (const auto &[Why, Count] : NotOptimized)
    Log.note(Source + ": " + llvm::Twine(Count) + " kernel" + (Count == 1 ? "" : "s") +
             " without a cached variant compiled as written: " + Why);
  NotOptimized.clear();
}

} // namespace kopt::driver
