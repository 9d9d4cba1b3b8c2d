// The result cache as a variant provider for kcc's rewrite: a hit gives the
// stored variant (or the stored verdict that nothing beat the original); a
// miss in mode `optimize` runs the loop on this machine's GPU, under the GPU
// lock, and stores the result; without a GPU, or in mode `cache-only`, a miss
// compiles the original with one note. It remembers which entry files it read,
// for a direct-mode manifest (memory/DirectManifest.h).
#pragma once

#include "driver/optimize/FrontEndLog.h"
#include "driver/optimize/VariantProvider.h"
#include "evaluator/Evaluator.h"
#include "memory/ResultCache.h"

#include <memory>
#include <string>
#include <vector>

namespace kopt::driver {

class CacheVariantProvider : public VariantProvider {
public:
  CacheVariantProvider(memory::ResultCache Store, FrontEndLog &Notes)
      : Cache(std::move(Store)), Log(Notes) {}

  llvm::Expected<std::optional<ProvidedVariant>> variantFor(const frontend::KernelSummary &Kernel,
                                                            const TuContext &Tu) override;

  // Every kernel asked for so far hit, without a warning about an entry.
  bool allHit() const { return AllHit; }
  // The entry files the lookups read or found absent, in order.
  const std::vector<memory::ManifestEntry> &entriesRead() const { return Read; }
  memory::ResultCache &cache() { return Cache; }

private:
  llvm::Expected<std::optional<memory::CacheEntry>> optimizeOnMiss(const frontend::KernelSummary &K,
                                                                   const TuContext &Tu,
                                                                   const memory::CacheKey &Key);
  memory::ResultCache Cache;
  FrontEndLog &Log;
  std::unique_ptr<evaluator::Evaluator> Eval;
  std::string NoGpu; // Why the evaluator could not start; said once.
  bool AllHit = true;
  std::vector<memory::ManifestEntry> Read;
};

} // namespace kopt::driver
