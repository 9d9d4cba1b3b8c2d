// kopt optimize FILE [--kernel NAME] [--kopt-OPTION]... [--] [COMPILER FLAGS]
// Runs the optimization loop on each annotated kernel of FILE (or one), with a
// progress line a variant and a final table, and stores each result in the
// cache that kcc reads, so the next build of FILE uses it.
#include "driver/commands/OptimizeCommand.h"

#include "driver/Diagnostics.h"
#include "driver/commands/FrontendSetup.h"
#include "driver/commands/ResultCacheSetup.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccLocator.h"
#include "driver/optimize/KernelOptimization.h"
#include "memory/cache/FileLock.h"
#include "memory/cache/ResultCache.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/FormatVariadic.h>
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
const std::optional<double> Gone = std::nullopt; // A figure the kernel has no variant for.

// A table cell: "34 -> 81" (original and variant), "34" (original kept), or
// "not recorded" for a figure the profile lacks.
std::string peakShareCell(const std::optional<double> &Before, const std::optional<double> &After,
                          bool HasVariant) {
  auto Text = [](const std::optional<double> &V) {
    return V ? llvm::formatv("{0:f0}", *V).str() : std::string("not recorded");
  };
  if (!HasVariant)
    return Text(Before);
  if (!Before && !After)
    return "not recorded";
  return Text(Before) + " -> " + Text(After);
}
} // namespace

int runOptimize(const std::vector<std::string> &Arguments) {
  return runOptimizeWith(Arguments, []() -> llvm::Expected<OptimizeEvaluator> {
    auto Eval = evaluator::Evaluator::start();
    if (!Eval)
      return Eval.takeError();
    std::string Device = (*Eval)->device().Name;
    return OptimizeEvaluator{std::move(*Eval), Device};
  });
}

int runOptimizeWith(const std::vector<std::string> &Arguments, const EvaluatorFactory &Start) {
  const char *Tool = "kopt optimize";
  std::vector<std::string> Args = Arguments;
  auto KernelName = takeOption(Args, "kernel");
  if (!KernelName) {
    reportError(Tool, KernelName.takeError());
    return 1;
  }
  // The --kopt- options before "--" are kopt's; those after it belong to the compile.
  std::vector<std::string> Own, Compile;
  auto Dash = std::find(Args.begin(), Args.end(), "--");
  Own.assign(Args.begin(), Dash);
  auto Options = koptOptionsFor(Own);
  if (!Options) {
    reportError(Tool, Options.takeError());
    return 1;
  }
  Own.insert(Own.end(), Dash, Args.end());
  auto Loaded = loadSourceKernels(Own, "optimize FILE [--kernel K] [--kopt-OPTION]... [-- FLAGS]");
  if (!Loaded) {
    reportError(Tool, Loaded.takeError());
    return 1;
  }
  std::vector<const frontend::KernelSummary *> Targets;
  if (*KernelName) {
    auto K = pickAnnotatedKernel(*Loaded, **KernelName);
    if (!K) {
      reportError(Tool, K.takeError());
      return 1;
    }
    Targets.push_back(&*K);
  } else {
    for (const frontend::KernelSummary &K : Loaded->Kernels)
      if (K.Pragma)
        Targets.push_back(&K);
  }
  if (Targets.empty()) {
    reportError(Tool, Loaded->File + " has no kernel marked with '#pragma kopt optimize'");
    return 1;
  }
  auto Setup = frontendSetupFor(Loaded->Flags);
  if (!Setup) {
    reportError(Tool, Setup.takeError());
    return 1;
  }
  auto Cache = openResultCache(*Options, NvccSearchEnvironment::current().GetEnv);
  if (!Cache) {
    reportError(Tool, Cache.takeError());
    return 1;
  }
  // Each kernel's engine before the GPU: a missing llm configuration is
  // reported here, GPU or not.
  int Status = 0;
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
    Status = 1;
  }
  if (Jobs.empty())
    return Status;
  auto Lock = memory::GpuLock::acquire(memory::GpuLock::defaultPath());
  if (!Lock) {
    reportError(Tool, Lock.takeError());
    return 1;
  }
  auto Eval = Start();
  if (!Eval) {
    reportError(Tool, Eval.takeError());
    return 1;
  }
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
      Status = 1;
      continue;
    }
    memory::CacheKey Key = cacheKeyFor(*K, Setup->GpuArch, Loaded->Flags);
    std::string RemoteWarning;
    if (llvm::Error E = (*Cache).store(Key, Result->Entry, &RemoteWarning))
      llvm::errs() << Tool << ": warning: not cached: " << llvm::toString(std::move(E)) << "\n";
    if (!RemoteWarning.empty())
      llvm::errs() << Tool << ": warning: " << RemoteWarning << "\n";
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
         "seconds  DRAM % of peak  SM % of peak    winning steps\n";
  for (const Row &R : Rows) {
    const std::optional<memory::EntryProfile> &P = R.Entry.Profile;
    auto Shares = [&](const std::optional<double> memory::RunFigures::*Field) {
      return P ? peakShareCell(P->Original.*Field, R.Entry.Variant ? P->Variant.*Field : Gone,
                               R.Entry.Variant.has_value())
               : std::string("not recorded");
    };
    llvm::outs() << llvm::format(
        "%-28s %12.4f %12.4f %7.2fx %8zu %5u %7.2f %8.1f  %-14s  %-14s  %s\n", R.Kernel.c_str(),
        R.OriginalMs, R.BestMs, R.Entry.Speedup, R.Variants, R.Evaluations, R.MeanEvalSeconds,
        R.Seconds, Shares(&memory::RunFigures::DramPct).c_str(),
        Shares(&memory::RunFigures::SmPct).c_str(),
        R.Entry.Variant ? llvm::join(R.Entry.Origin.Skills, " + ").c_str() : "(original kept)");
  }
  return Status;
}

} // namespace kopt::driver
