// The result cache as a variant provider for kcc's rewrite: a hit gives the
// stored variant (or the stored verdict that nothing beat the original); a
// miss in mode `optimize` runs the loop on this machine's GPU, under the GPU
// lock, and stores the result; without a GPU, or in mode `cache-only`, a miss
// compiles the original with one note.
#pragma once

#include "driver/VariantProvider.h"
#include "evaluator/Evaluator.h"
#include "memory/ResultCache.h"

#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

namespace kopt::driver {

class CacheVariantProvider : public VariantProvider {
public:
  CacheVariantProvider(memory::ResultCache Store, std::string Note)
      : Cache(std::move(Store)), NotePrefix(std::move(Note)) {}

  llvm::Expected<std::optional<ProvidedVariant>> variantFor(const frontend::KernelSummary &Kernel,
                                                            const TuContext &Tu) override;

private:
  llvm::Expected<std::optional<memory::CacheEntry>> optimizeOnMiss(const frontend::KernelSummary &K,
                                                                   const TuContext &Tu,
                                                                   const memory::CacheKey &Key);
  memory::ResultCache Cache;
  std::string NotePrefix;
  std::unique_ptr<evaluator::Evaluator> Eval;
  std::string NoGpu; // Why the evaluator could not start; said once.
};

} // namespace kopt::driver
