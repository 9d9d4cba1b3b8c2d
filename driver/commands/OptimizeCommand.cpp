// kopt optimize FILE [--kernel NAME] [--kopt-OPTION]... [--] [COMPILER FLAGS]
// Runs the optimization loop on each annotated kernel of FILE (or one), with a
// progress line a variant and a final table, and stores each result in the
// cache that kcc reads, so the next build of FILE uses it.
#include "driver/commands/OptimizeCommand.h"

#include "driver/Diagnostics.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccLocator.h"
#include "driver/optimize/FrontendSetup.h"
#include "driver/optimize/KernelOptimization.h"
#include "driver/optimize/ResultCacheSetup.h"
#include "memory/cache/FileLock.h"
#include "memory/cache/ResultCache.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {
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
} // namespace

llvm::Expected<OptimizeEvaluator> startGpuEvaluator() {
  auto Eval = evaluator::Evaluator::start();
  if (!Eval)
    return Eval.takeError();
  std::string Device = (*Eval)->device().Name, Arch = (*Eval)->device().smArch();
  return OptimizeEvaluator{std::move(*Eval), Device, Arch};
}

llvm::Error runOptimize(const std::vector<std::string> &Arguments) {
  return runOptimizeWith(Arguments, startGpuEvaluator);
}

llvm::Error runOptimizeWith(const std::vector<std::string> &Arguments,
                            const EvaluatorFactory &Start) {
  const char *Tool = "kopt optimize";
  Reporter Voice(Tool);
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
  auto Loaded = loadSourceKernels(Own, "optimize FILE [--kernel K] [--kopt-OPTION]... [-- FLAGS]");
  if (!Loaded)
    return Loaded.takeError();
  std::vector<const frontend::KernelSummary *> Targets;
  if (*KernelName) {
    auto K = pickAnnotatedKernel(*Loaded, **KernelName);
    if (!K)
      return K.takeError();
    Targets.push_back(&*K);
  } else {
    for (const frontend::KernelSummary &K : Loaded->Kernels)
      if (K.Pragma)
        Targets.push_back(&K);
  }
  if (Targets.empty())
    return llvm::createStringError(Loaded->File +
                                   " has no kernel marked with '#pragma kopt optimize'");
  auto Setup = frontendSetupFor(Loaded->Flags);
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
  bool Failed = false; // A kernel's reason is said where it fails; the others go on.
  std::vector<KernelJob> Jobs;
  for (const frontend::KernelSummary *K : Targets) {
    auto Job = jobFor(*K, Loaded->File, Loaded->Flags, Setup->clangArgs(), *Options,
                      Cache->config().UserDir);
    if (Job) {
      Jobs.push_back(std::move(*Job));
      continue;
    }
    llvm::errs() << Loaded->File << ":" << K->Line << ": " << K->Name << ": "
                 << llvm::toString(Job.takeError()) << "\n";
    Failed = true;
  }
  if (Jobs.empty())
    return Failed ? failWithStatus(1) : llvm::Error::success();
  auto Lock = memory::GpuLock::acquire(memory::GpuLock::defaultPath());
  if (!Lock)
    return Lock.takeError();
  auto Eval = Start();
  if (!Eval)
    return Eval.takeError();
  llvm::outs() << Tool << ": " << Jobs.size() << " kernel" << (Jobs.size() == 1 ? "" : "s")
               << " of " << Loaded->File << " on " << Eval->Device << "\n";
  struct Row {
    std::string Kernel;
    memory::CacheEntry Entry;
    double OriginalMs = 0, BestMs = 0, Seconds = 0;
    size_t Variants = 0;
    unsigned Evaluations = 0;
    double MeanEvalSeconds = 0;
  };
  std::vector<Row> Rows;
  for (const KernelJob &Job : Jobs) {
    const frontend::KernelSummary *K = Job.Kernel;
    llvm::outs() << K->Name << ":" << (Job.Engine == "llm" ? " (engine llm)" : "") << "\n";
    auto Result = optimizeForCache(Job, *Eval->Eval, &llvm::outs());
    if (!Result) {
      llvm::errs() << Loaded->File << ":" << K->Line << ": " << K->Name << ": "
                   << llvm::toString(Result.takeError()) << "\n";
      Failed = true;
      continue;
    }
    memory::CacheKey Key = cacheKeyFor(*K, Setup->GpuArch, Loaded->Flags);
    std::string RemoteWarning;
    if (llvm::Error E = (*Cache).store(Key, Result->Entry, &RemoteWarning))
      Voice.warning("not cached: " + llvm::toString(std::move(E)));
    if (!RemoteWarning.empty())
      Voice.warning(RemoteWarning);
    const agents::OptimizeResult &O = Result->Optimized;
    const nlohmann::json &Evals = Result->Entry.Timing["evaluations"];
    // A weighted timing's milliseconds are the application's mean per launch,
    // the original's included.
    const bool Weighted = O.Best && !O.BestOutcome.Weighted.is_null();
    Rows.push_back({K->Name, Result->Entry,
                    Weighted ? O.BestOutcome.Original.MedianMs : O.Original.Timing.MedianMs,
                    O.Best ? O.BestOutcome.Variant.MedianMs : O.Original.Timing.MedianMs, O.Seconds,
                    O.Trajectory.size(), Evals.value("count", 0u),
                    Evals.value("mean_seconds", 0.0)});
    if (O.Llm)
      llvm::outs() << "  llm " << llmSpendLine(*O.Llm) << "\n";
    llvm::outs() << "  -> " << describeEntry(Result->Entry) << " (key " << Key.Digest.substr(0, 16)
                 << ")\n";
    llvm::outs() << "  evaluations: " << describeEvaluations(Result->Entry) << "\n";
    if (Weighted)
      llvm::outs() << "  weighted: " << describeWeighted(O.BestOutcome.Weighted) << "\n";
  }
  llvm::outs()
      << "\n"
      << "kernel                        original ms      best ms  speedup variants evals  s/eval  "
         "seconds  winning steps\n";
  for (const Row &R : Rows)
    llvm::outs() << llvm::format(
        "%-28s %12.4f %12.4f %7.2fx %8zu %5u %7.2f %8.1f  %s\n", R.Kernel.c_str(), R.OriginalMs,
        R.BestMs, R.Entry.Speedup, R.Variants, R.Evaluations, R.MeanEvalSeconds, R.Seconds,
        R.Entry.Variant ? llvm::join(R.Entry.Origin.Skills, " + ").c_str() : "(original kept)");
  return Failed ? failWithStatus(1) : llvm::Error::success();
}

} // namespace kopt::driver
