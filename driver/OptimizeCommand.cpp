// kopt optimize FILE [--kernel NAME] [--kopt-OPTION]... [--] [COMPILER FLAGS]
// Runs the optimization loop on each annotated kernel of FILE (or one), with a
// progress line a variant and a final table, and stores each result in the
// cache that kcc reads, so the next build of FILE uses it.
#include "driver/CacheConfig.h"
#include "driver/Diagnostics.h"
#include "driver/FrontendSetup.h"
#include "driver/KernelOptimization.h"
#include "driver/NvccLocator.h"
#include "driver/SourceKernels.h"
#include "driver/Subcommand.h"
#include "memory/FileLock.h"
#include "memory/ResultCache.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

int runOptimize(const std::vector<std::string> &Arguments) {
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
  auto CacheConfig = cacheConfigFrom(*Options, NvccSearchEnvironment::current().GetEnv);
  auto Cache = CacheConfig ? memory::ResultCache::open(*CacheConfig) : CacheConfig.takeError();
  if (!Cache) {
    reportError(Tool, Cache.takeError());
    return 1;
  }
  auto Lock = memory::GpuLock::acquire(memory::GpuLock::defaultPath());
  if (!Lock) {
    reportError(Tool, Lock.takeError());
    return 1;
  }
  auto Eval = evaluator::Evaluator::start();
  if (!Eval) {
    reportError(Tool, Eval.takeError());
    return 1;
  }
  llvm::outs() << Tool << ": " << Targets.size() << " kernel" << (Targets.size() == 1 ? "" : "s")
               << " of " << Loaded->File << " on " << (*Eval)->device().Name << "\n";
  struct Row {
    std::string Kernel;
    memory::CacheEntry Entry;
    double OriginalMs = 0, BestMs = 0, Seconds = 0;
    size_t Variants = 0;
  };
  std::vector<Row> Rows;
  int Status = 0;
  for (const frontend::KernelSummary *K : Targets) {
    llvm::outs() << K->Name << ":\n";
    KernelJob Job =
        jobFor(*K, Loaded->File, Loaded->Flags, Setup->clangArgs(), *Options, CacheConfig->UserDir);
    auto Result = optimizeForCache(Job, **Eval, &llvm::outs());
    if (!Result) {
      llvm::errs() << Loaded->File << ":" << K->Line << ": " << K->Name << ": "
                   << llvm::toString(Result.takeError()) << "\n";
      Status = 1;
      continue;
    }
    memory::CacheKey Key = cacheKeyFor(*K, Setup->GpuArch, Loaded->Flags, Loaded->File);
    if (llvm::Error E = (*Cache).store(Key, Result->Entry))
      llvm::errs() << Tool << ": warning: not cached: " << llvm::toString(std::move(E)) << "\n";
    const agents::OptimizeResult &O = Result->Optimized;
    Rows.push_back({K->Name, Result->Entry, O.Original.Timing.MedianMs,
                    O.Best ? O.BestOutcome.Variant.MedianMs : O.Original.Timing.MedianMs, O.Seconds,
                    O.Trajectory.size()});
    llvm::outs() << "  -> " << describeEntry(Result->Entry) << " (key " << Key.Digest.substr(0, 16)
                 << ")\n";
  }
  llvm::outs()
      << "\n"
      << "kernel                        original ms      best ms  speedup variants  seconds  "
         "winning steps\n";
  for (const Row &R : Rows)
    llvm::outs() << llvm::format("%-28s %12.4f %12.4f %7.2fx %8zu %8.1f  %s\n", R.Kernel.c_str(),
                                 R.OriginalMs, R.BestMs, R.Entry.Speedup, R.Variants, R.Seconds,
                                 R.Entry.Variant ? llvm::join(R.Entry.Origin.Skills, " + ").c_str()
                                                 : "(original kept)");
  return Status;
}

} // namespace kopt::driver
