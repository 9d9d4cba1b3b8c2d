// The result cache as a variant provider for kcc's rewrite, asked once for
// each kernel and real architecture: a hit gives the stored variant (or the
// stored verdict that nothing beat the original). A miss is explained (the
// nearest entry for the kernel and what differs: memory/cache/MissExplanation.h);
// in mode `optimize`, on a free GPU of that architecture (GpuPool.h: any of
// those the `devices` option allows, each under its lock) and within the
// build's budget, it runs the loop and stores the result; in mode `queue` it
// submits a job for a GPU worker (QueueSubmission.h). Kernels
// that could not be optimized here are summed up in one note per compile
// (finish()). It remembers which entry files it read, for a direct-mode
// manifest (memory/cache/DirectManifest.h).
#pragma once

#include "driver/optimize/FrontEndLog.h"
#include "driver/optimize/GpuPool.h"
#include "driver/optimize/KernelOptimization.h"
#include "driver/optimize/QueueSubmission.h"
#include "driver/optimize/UnitTimeShare.h"
#include "driver/optimize/VariantProvider.h"
#include "memory/cache/ResultCache.h"
#include "report/BuildLog.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kopt::driver {

class CacheVariantProvider : public VariantProvider {
public:
  CacheVariantProvider(memory::ResultCache Store, FrontEndLog &Notes)
      : Cache(std::move(Store)), Log(Notes) {}

  llvm::Expected<std::optional<ProvidedVariant>> variantFor(const frontend::KernelSummary &Kernel,
                                                            const TuContext &Tu) override;
  // The compile's annotated kernels, before any is asked for: those that miss
  // the cache share the time they would have had each, by one launch of each
  // (UnitTimeShare.h), where no recording says what the program spends in them.
  void beginUnit(std::vector<const frontend::KernelSummary *> Kernels);
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
  // A lookup, its warnings said.
  llvm::Expected<std::optional<memory::CacheEntry>> lookup(const memory::CacheKey &Key);
  // The model of the GPUs kcc would optimize Tu's kernels on, or "" where it
  // would not optimize.
  std::string modelToOptimizeOn(const TuContext &Tu);
  // The kernel optimized here and stored (storeKeysFor), or none where it
  // cannot be now (counted for finish()); in mode queue, Key's job queued.
  // Miss: why, for the note.
  llvm::Expected<std::optional<memory::CacheEntry>> optimizeOnMiss(const frontend::KernelSummary &K,
                                                                   const TuContext &Tu,
                                                                   const memory::CacheKey &Key,
                                                                   const std::string &Miss);
  // Mode queue: the kernel's job goes to the work queue; it is compiled as written.
  void queueOnMiss(const frontend::KernelSummary &K, const TuContext &Tu,
                   const memory::CacheKey &Key);
  // Whether a cached Entry may be used with the kernel's current recording
  // (issue 17): yes where the entry was verified on it, or this machine cannot
  // verify (then with one note); else after the variant is verified on the
  // launches beyond, which widens the stored entry. False: it failed there.
  llvm::Expected<bool> usableOnRecording(const frontend::KernelSummary &K, const TuContext &Tu,
                                         const memory::CacheKey &Key, memory::CacheEntry &Entry);
  // A free GPU of Tu's architecture, for this process alone, its evaluator
  // started; a note while other processes hold them all.
  llvm::Expected<GpuPool::Lease> lendGpu(const TuContext &Tu, const std::string &Where);
  // Sets Job's budget to K's share by the recorded program's GPU time
  // (ProgramTimeShare.h), where there is one; returns the progress line's
  // words for it, "" where K keeps a time of its own (the pragma's, or a
  // recorded program of one kernel), none where K has no time of its own.
  std::optional<std::string> shareByProgramTime(const frontend::KernelSummary &K,
                                                const TuContext &Tu, KernelJob &Job);
  // For a K without a time of its own: sets Job's budget to K's share of the
  // time the compile's kernels that miss the cache share (UnitTimeShare.h),
  // timing one launch of each on Eval at the compile's first such miss;
  // returns the progress line's words, or "".
  std::string shareByUnitTime(const frontend::KernelSummary &K, const TuContext &Tu, KernelJob &Job,
                              evaluator::VariantEvaluator &Eval);
  // The share of the kernels still to be asked for (K among them) that miss
  // the cache and have no time of their own, each timed once; none where fewer
  // than two are.
  std::optional<UnitTimeShare> weighUnit(const frontend::KernelSummary &K, const TuContext &Tu,
                                         const KernelJob &Job, evaluator::VariantEvaluator &Eval);
  // Whether K's time is the user's (a pragma budget(time = ...)) or a
  // recording's (ProgramTimeShare.h) rather than a share of the compile's.
  bool hasOwnTime(const frontend::KernelSummary &K);
  // Why this machine cannot optimize for Tu's architecture now, or "" where it can.
  std::string cannotOptimize(const TuContext &Tu);
  memory::ResultCache Cache;
  FrontEndLog &Log;
  bool Listed = false;                                   // The driver was asked for the GPUs.
  std::vector<evaluator::DeviceInfo> Visible;            // What it said,
  std::string NoGpu;                                     // or why it has none.
  std::map<std::string, std::unique_ptr<GpuPool>> Pools; // By architecture.
  bool AllHit = true;
  std::vector<memory::ManifestEntry> Read;
  std::map<std::string, unsigned> NotOptimized; // Reason -> kernels.
  std::unique_ptr<QueueSubmitter> Queue;        // Mode queue, from the first miss on.
  std::string LastSkip;                         // Why optimizeOnMiss did not optimize or queued.
  std::vector<report::BuildRecord> Lookups;
  std::vector<const frontend::KernelSummary *> UnitKernels;       // beginUnit's.
  std::map<std::string, std::set<const void *>> Asked;            // By architecture.
  std::map<std::string, std::optional<UnitTimeShare>> UnitShares; // By architecture: weighed.
};

} // namespace kopt::driver
