// The result cache as a variant provider for kcc's rewrite, asked once for
// each kernel and real architecture: a hit gives the stored variant (or the
// stored verdict that nothing beat the original). A miss is explained (the
// nearest entry for the kernel and what differs: memory/cache/MissExplanation.h);
// in mode `optimize`, on a GPU of that architecture and within the build's
// budget, it runs the loop under the GPU lock and stores the result. Kernels
// that could not be optimized here are summed up in one note per compile
// (finish()). It remembers which entry files it read, for a direct-mode
// manifest (memory/cache/DirectManifest.h).
#pragma once

#include "driver/optimize/FrontEndLog.h"
#include "driver/optimize/VariantProvider.h"
#include "evaluator/Evaluator.h"
#include "memory/cache/FileLock.h"
#include "memory/cache/ResultCache.h"
#include "report/BuildLog.h"

#include <map>
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
  // One note for the compile of Source for each reason kernels were not
  // optimized here ("no GPU here (...)"), with how many.
  void finish(llvm::StringRef Source);

  // Every kernel asked for so far hit, without a warning about an entry.
  bool allHit() const { return AllHit; }
  // The entry files the lookups read or found absent, in order.
  const std::vector<memory::ManifestEntry> &entriesRead() const { return Read; }
  memory::ResultCache &cache() { return Cache; }
  const memory::ResultCache &cache() const { return Cache; }
  // One record a lookup (kernel and architecture): what it found or why it
  // missed, for the build log (report/BuildLog.h); Source and the caches are
  // the caller's to fill.
  const std::vector<report::BuildRecord> &lookups() const { return Lookups; }

private:
  llvm::Expected<std::optional<memory::CacheEntry>> optimizeOnMiss(const frontend::KernelSummary &K,
                                                                   const TuContext &Tu,
                                                                   const memory::CacheKey &Key,
                                                                   const std::string &Miss);
  // Whether a cached Entry may be used with the kernel's current recording
  // (issue 17): yes where the entry was verified on it, or this machine cannot
  // verify (then with one note); else after the variant is verified on the
  // launches beyond, which widens the stored entry. False: it failed there.
  llvm::Expected<bool> usableOnRecording(const frontend::KernelSummary &K, const TuContext &Tu,
                                         const memory::CacheKey &Key, memory::CacheEntry &Entry);
  // The GPU, for this process alone; a note while another one holds it.
  llvm::Expected<memory::GpuLock> lockGpu(const std::string &Where);
  // Why this machine cannot optimize for Arch now, or "" where it can.
  std::string cannotOptimize(const TuContext &Tu);
  memory::ResultCache Cache;
  FrontEndLog &Log;
  std::unique_ptr<evaluator::Evaluator> Eval;
  std::string NoGpu; // Why the evaluator could not start.
  bool AllHit = true;
  std::vector<memory::ManifestEntry> Read;
  std::map<std::string, unsigned> NotOptimized; // Reason -> kernels.
  std::string LastSkip;                         // Why optimizeOnMiss did not optimize.
  std::vector<report::BuildRecord> Lookups;
};

} // namespace kopt::driver
