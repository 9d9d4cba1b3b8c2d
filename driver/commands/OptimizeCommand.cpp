// kopt optimize FILE... [--kernel NAME] [--kopt-OPTION]... [--] [COMPILER FLAGS]
// Runs the optimization loop on each annotated kernel of the files (or the
// one named), with a progress line a variant and a final table, and stores
// each result in the cache that kcc reads, so the next build of the files uses
// it. The kernels are spread over the GPUs the `devices` option allows (one
// worker a GPU, each kernel on the next GPU that is free; GpuPool.h), each
// GPU's lines after its name ("[gpu1 H200] ") where there are several.
#include "driver/commands/OptimizeCommand.h"

#include "driver/Diagnostics.h"
#include "driver/commands/LinePrefixStream.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccLocator.h"
#include "driver/optimize/FrontendSetup.h"
#include "driver/optimize/KernelOptimization.h"
#include "driver/optimize/ResultCacheSetup.h"
#include "memory/cache/ResultCache.h"
#include "memory/experience/ExperienceStore.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

namespace kopt::driver {

namespace {
constexpr const char *Tool = "kopt optimize";

// "gpt-4o: 3232 input + 703 output tokens in 3 requests, $0.0151"
std::string llmSpendLine(const agents::LlmSpend &S) {
  std::string Line;
  llvm::raw_string_ostream OS(Line);
  OS << S.Model << ": " << S.InputTokens << " input + " << S.OutputTokens << " output tokens in "
     << S.Requests << " request" << (S.Requests == 1 ? "" : "s");
  if (S.Priced)
    OS << ", $" << llvm::format("%.4f", S.CostUsd);
  else
    OS << ", cost unknown (no price for the model)";
  return Line;
}

struct Row {
  std::string Kernel;
  memory::CacheEntry Entry;
  double OriginalMs = 0, BestMs = 0, Seconds = 0;
  size_t Variants = 0;
  unsigned Evaluations = 0;
  double MeanEvalSeconds = 0;
};

// The files: the arguments before the first option or "--"; Args keeps the rest.
std::vector<std::string> takeFiles(std::vector<std::string> &Args) {
  auto End = std::find_if(Args.begin(), Args.end(),
                          [](const std::string &A) { return A.starts_with("-") && A != "-"; });
  std::vector<std::string> Files(Args.begin(), End);
  Args.erase(Args.begin(), End);
  return Files;
}

// The GPUs a run uses: those of the compile's architecture, else (with a
// warning) those of the first GPU's, as before there were several; the cache
// key is the compile's either way. Of those, one model, so that no kernel's
// result depends on the GPU it happened to get.
std::vector<evaluator::DeviceInfo> ofOneModel(std::vector<evaluator::DeviceInfo> Devices,
                                              llvm::StringRef Arch) {
  if (std::none_of(Devices.begin(), Devices.end(),
                   [&](const evaluator::DeviceInfo &D) { return D.smArch() == Arch; }))
    llvm::errs() << Tool << ": warning: no GPU here is " << Arch
                 << " (the compile's architecture); optimizing on " << Devices.front().smArch()
                 << "\n";
  else
    std::erase_if(Devices, [&](const evaluator::DeviceInfo &D) { return D.smArch() != Arch; });
  const std::string Model = Devices.front().Name;
  std::erase_if(Devices, [&](const evaluator::DeviceInfo &D) { return D.Name != Model; });
  return Devices;
}

std::string devicesLine(const std::vector<evaluator::DeviceInfo> &Devices) {
  if (Devices.size() == 1)
    return Devices.front().Name;
  std::vector<std::string> Labels;
  for (const evaluator::DeviceInfo &D : Devices)
    Labels.push_back(gpuLabel(D));
  return std::to_string(Devices.size()) + " GPUs (" + llvm::join(Labels, ", ") + ")";
}
} // namespace

llvm::Expected<OptimizeEvaluator> startGpuEvaluator() {
  auto Eval = evaluator::Evaluator::start();
  if (!Eval)
    return Eval.takeError();
  std::string Device = (*Eval)->device().Name, Arch = (*Eval)->device().smArch();
  return OptimizeEvaluator{std::move(*Eval), Device, Arch};
}

llvm::Error runOptimize(const std::vector<std::string> &Arguments) {
  return runOptimizeWith(Arguments, OptimizeGpus{visibleDevices, GpuPool::startEvaluator});
}

llvm::Error runOptimizeWith(const std::vector<std::string> &Arguments, const OptimizeGpus &Gpus) {
  const Reporter Voice(Tool);
  std::vector<std::string> Args = Arguments;
  auto KernelName = takeOption(Args, "kernel");
  if (!KernelName)
    return KernelName.takeError();
  // The --kopt- options before "--" are kopt's; those after it belong to the compile.
  std::vector<std::string> Own, Compile;
  auto Dash = std::find(Args.begin(), Args.end(), "--");
  Own.assign(Args.begin(), Dash);
  auto Options = koptOptionsFor(Own);
  if (!Options)
    return Options.takeError();
  Own.insert(Own.end(), Dash, Args.end());
  std::vector<std::string> Files = takeFiles(Own);
  if (Files.empty())
    Files.push_back("");             // loadSourceKernels says what is missing.
  std::deque<SourceKernels> Sources; // Jobs point into their kernels.
  for (const std::string &File : Files) {
    std::vector<std::string> FileArgs = {File};
    FileArgs.insert(FileArgs.end(), Own.begin(), Own.end());
    auto Loaded = loadSourceKernels(File.empty() ? Own : FileArgs,
                                    "optimize FILE... [--kernel K] [--kopt-OPTION]... [-- FLAGS]");
    if (!Loaded)
      return Loaded.takeError();
    Sources.push_back(std::move(*Loaded));
  }
  std::vector<std::pair<const SourceKernels *, const frontend::KernelSummary *>> Targets;
  for (const SourceKernels &S : Sources) {
    if (!*KernelName) {
      for (const frontend::KernelSummary &K : S.Kernels)
        if (K.Pragma)
          Targets.emplace_back(&S, &K);
      continue;
    }
    auto K = pickAnnotatedKernel(S, **KernelName);
    if (K)
      Targets.emplace_back(&S, &*K);
    else if (Sources.size() == 1)
      return K.takeError();
    else
      llvm::consumeError(K.takeError()); // Another file may have it.
  }
  const std::string FileList = llvm::join(Files, ", ");
  if (Targets.empty())
    return llvm::createStringError(
        *KernelName ? FileList + " has no annotated kernel named '" + **KernelName + "'"
                    : FileList + " has no kernel marked with '#pragma kopt optimize'");
  const std::vector<std::string> &Flags = Sources.front().Flags;
  auto Setup = frontendSetupFor(Flags);
  if (!Setup)
    return Setup.takeError();
  // A malformed remote_cache: the results stay local, unless --kopt-strict.
  std::string RemoteProblem;
  auto Cache = openResultCache(*Options, NvccSearchEnvironment::current().GetEnv,
                               Options->strict() ? nullptr : &RemoteProblem);
  if (!Cache)
    return Cache.takeError();
  if (!RemoteProblem.empty())
    Voice.warning(RemoteProblem + RemotesDropped.str());
  // Each kernel's engine before the GPU: a missing llm configuration is
  // reported here, GPU or not.
  std::atomic<int> Status = 0;
  std::vector<KernelJob> Jobs;
  for (auto [Source, K] : Targets) {
    auto Job = jobFor(*K, Source->File, Source->Flags, Setup->clangArgs(), *Options,
                      Cache->config().UserDir);
    if (Job) {
      Jobs.push_back(std::move(*Job));
      continue;
    }
    llvm::errs() << Source->File << ":" << K->Line << ": " << K->Name << ": "
                 << llvm::toString(Job.takeError()) << "\n";
    Status = 1;
  }
  if (Jobs.empty())
    return failWithStatus(Status);
  // Every kernel of the run plans from the experience as the run found it,
  // so that what it does is the same on one GPU or several, in any order.
  auto Experience = std::make_shared<const memory::ExperienceStore>(
      memory::ExperienceStore::open(Jobs.front().ExperiencePath));
  for (KernelJob &Job : Jobs)
    Job.Experience = Experience;

  auto Visible = Gpus.List();
  if (!Visible)
    return Visible.takeError();
  auto Allowed = allowedDevices(*Visible, Options->get("devices").Value);
  if (!Allowed)
    return Allowed.takeError();
  if (Allowed->empty())
    return llvm::createStringError("no GPU here to optimize on");
  std::vector<evaluator::DeviceInfo> Devices = ofOneModel(*Allowed, Setup->GpuArch);
  GpuPool Pool(Devices, Gpus.Start);
  llvm::outs() << Tool << ": " << Jobs.size() << " kernel" << (Jobs.size() == 1 ? "" : "s")
               << " of " << FileList << " on " << devicesLine(Devices) << "\n";
  llvm::outs().flush();

  std::mutex OutputLock, CacheLock;
  std::vector<std::optional<Row>> Rows(Jobs.size());
  // One kernel on the next free GPU; Out: this worker's lines.
  auto RunOne = [&](size_t I, llvm::raw_ostream &Out, LinePrefixStream *Prefixed) {
    const KernelJob &Job = Jobs[I];
    const frontend::KernelSummary *K = Job.Kernel;
    auto Error = [&](const std::string &Message) {
      std::lock_guard<std::mutex> Guard(OutputLock);
      llvm::errs() << Job.File << ":" << K->Line << ": " << K->Name << ": " << Message << "\n";
      Status = 1;
    };
    auto Lease = Pool.lend([&](const std::string &Why) { Out << K->Name << ": " << Why << "\n"; });
    if (!Lease)
      return Error(llvm::toString(Lease.takeError()));
    if (Prefixed) { // Appended, not '+': GCC 12 warns on "[" + std::string (-Wrestrict).
      std::string Prefix = "[";
      Prefix.append(Lease->label()).append("] ");
      Prefixed->setPrefix(std::move(Prefix));
    }
    Out << K->Name << ":" << (Job.Engine == "llm" ? " (engine llm)" : "") << "\n";
    auto Result = optimizeForCache(Job, Lease->evaluator(), &Out);
    if (!Result)
      return Error(llvm::toString(Result.takeError()));
    memory::CacheKey Key;
    {
      std::lock_guard<std::mutex> Guard(CacheLock);
      Key = storeKeyFor(*K, Setup->GpuArch, Job.NvccFlags, Result->Entry.Origin.Device, *Cache);
      std::string RemoteWarning;
      llvm::Error E = (*Cache).store(Key, Result->Entry, &RemoteWarning);
      std::lock_guard<std::mutex> Said(OutputLock);
      if (E)
        Voice.warning("not cached: " + llvm::toString(std::move(E)));
      if (!RemoteWarning.empty())
        Voice.warning(RemoteWarning);
    }
    const agents::OptimizeResult &O = Result->Optimized;
    const nlohmann::json &Evals = Result->Entry.Timing["evaluations"];
    // A weighted timing's milliseconds are the application's mean per launch,
    // the original's included.
    const bool Weighted = O.Best && !O.BestOutcome.Weighted.is_null();
    Rows[I] = Row{K->Name,
                  Result->Entry,
                  Weighted ? O.BestOutcome.Original.MedianMs : O.Original.Timing.MedianMs,
                  O.Best ? O.BestOutcome.Variant.MedianMs : O.Original.Timing.MedianMs,
                  O.Seconds,
                  O.Trajectory.size(),
                  Evals.value("count", 0u),
                  Evals.value("mean_seconds", 0.0)};
    if (O.Llm)
      Out << "  llm " << llmSpendLine(*O.Llm) << "\n";
    Out << "  -> " << describeEntry(Result->Entry) << " (key " << Key.Digest.substr(0, 16) << ")\n";
    Out << "  evaluations: " << describeEvaluations(Result->Entry) << "\n";
    if (Weighted)
      Out << "  weighted: " << describeWeighted(O.BestOutcome.Weighted) << "\n";
  };
  // Lines carry their GPU's name only where several kernels run at once.
  const size_t Workers = std::min(Devices.size(), Jobs.size());
  if (Workers == 1) {
    for (size_t I = 0; I < Jobs.size(); ++I)
      RunOne(I, llvm::outs(), nullptr);
  } else {
    std::atomic<size_t> Next = 0;
    std::vector<std::thread> Threads;
    for (size_t W = 0; W < Workers; ++W)
      Threads.emplace_back([&] {
        LinePrefixStream Out(llvm::outs(), OutputLock, "");
        for (size_t I; (I = Next++) < Jobs.size();)
          RunOne(I, Out, &Out);
      });
    for (std::thread &T : Threads)
      T.join();
  }
  llvm::outs()
      << "\n"
      << "kernel                        original ms      best ms  speedup variants evals  s/eval  "
         "seconds  winning steps\n";
  for (const std::optional<Row> &R : Rows)
    if (R)
      llvm::outs() << llvm::format(
          "%-28s %12.4f %12.4f %7.2fx %8zu %5u %7.2f %8.1f  %s\n", R->Kernel.c_str(), R->OriginalMs,
          R->BestMs, R->Entry.Speedup, R->Variants, R->Evaluations, R->MeanEvalSeconds, R->Seconds,
          R->Entry.Variant ? llvm::join(R->Entry.Origin.Skills, " + ").c_str() : "(original kept)");
  return Status ? failWithStatus(Status) : llvm::Error::success();
}

} // namespace kopt::driver
