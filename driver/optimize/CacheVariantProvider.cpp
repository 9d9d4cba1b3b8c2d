#include "driver/optimize/CacheVariantProvider.h"

#include "driver/optimize/KernelOptimization.h"
#include "memory/FileLock.h"

namespace kopt::driver {

llvm::Expected<std::optional<ProvidedVariant>>
CacheVariantProvider::variantFor(const frontend::KernelSummary &K, const TuContext &Tu) {
  memory::CacheKey Key = cacheKeyFor(K, Tu.Arch, Tu.NvccFlags, Tu.SourcePath);
  std::string Warning;
  auto Hit = Cache.lookup(Key, &Warning, &Read);
  if (!Hit)
    return Hit.takeError();
  if (!Warning.empty()) {
    AllHit = false; // Recorded, the warning would hide a repaired entry.
    Log.note(Warning);
  }
  std::string Where = kernelPlace(K, Tu);
  std::optional<memory::CacheEntry> Entry = std::move(*Hit);
  std::string Source = "cache";
  if (!Entry) {
    AllHit = false;
    auto Made = optimizeOnMiss(K, Tu, Key);
    if (!Made)
      return Made.takeError();
    Entry = std::move(*Made);
    Source = "optimized now";
  }
  if (!Entry)
    return std::nullopt;
  if (!Entry->Variant) {
    Log.verboseNote(Where + describeEntry(*Entry) + " (" + Source + ")");
    return std::nullopt;
  }
  return ProvidedVariant{*Entry->Variant, describeEntry(*Entry) + " (" + Source + ")"};
}

llvm::Expected<std::optional<memory::CacheEntry>>
CacheVariantProvider::optimizeOnMiss(const frontend::KernelSummary &K, const TuContext &Tu,
                                     const memory::CacheKey &Key) {
  std::string Where = kernelPlace(K, Tu);
  if (Tu.Options.get("mode").Value != "optimize") {
    // The key's start: TUs that share a kernel (one in a header) share its entry.
    Log.verboseNote(Where + "no cached variant (cache-only; key " + Key.Digest.substr(0, 12) +
                    "): the original");
    return std::nullopt;
  }
  // The engine first: an llm engine without a model or key is the user's to
  // fix, GPU or not.
  auto Job =
      jobFor(K, Tu.SourcePath, Tu.NvccFlags, Tu.ClangArgs, Tu.Options, Cache.config().UserDir);
  if (!Job)
    return Job.takeError();
  if (!Eval && NoGpu.empty()) {
    auto Started = evaluator::Evaluator::start();
    if (Started)
      Eval = std::move(*Started);
    else
      NoGpu = llvm::toString(Started.takeError());
  }
  if (!Eval) {
    Log.note(Where + "no cached variant, and no GPU to optimize it here (" + NoGpu +
             "): compiling the original");
    return std::nullopt;
  }
  // One kernel timed at a time on this GPU, whatever else the build runs.
  std::string LockPath = memory::GpuLock::defaultPath();
  auto Lock = memory::GpuLock::acquire(LockPath, [&] {
    Log.note(Where + "waiting for the GPU: another kopt process is optimizing on it (lock " +
             LockPath + ")");
  });
  if (!Lock)
    return Lock.takeError();
  Log.note(Where + "optimizing on " + Eval->device().Name + " (engine " + Job->Engine + ")");
  auto Result = optimizeForCache(*Job, *Eval, Tu.Options.verbose() ? &llvm::errs() : nullptr);
  if (!Result)
    return Result.takeError();
  if (llvm::Error E = Cache.store(Key, Result->Entry))
    Log.note(Where + "not cached: " + llvm::toString(std::move(E)));
  return Result->Entry;
}

} // namespace kopt::driver
