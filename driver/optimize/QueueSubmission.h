// Mode queue (issue 33): a kernel that misses the cache becomes a job on the
// work queue (memory/queue/JobQueue.h) for `kopt worker` on a GPU host, and the
// compile goes on with the original kernel, as in mode cache-only. The job
// carries what the worker needs without this machine's source tree (the
// kernel's unit, its pragma as one line, the compile's flags, the target
// architecture and the cache key computed here), so the worker's result lands
// under the key the next build looks up.
#pragma once

#include "driver/optimize/VariantProvider.h"
#include "memory/cache/CacheKey.h"
#include "memory/queue/JobQueue.h"

#include <memory>
#include <optional>
#include <string>

namespace kopt::driver {

// The job for kernel K of the TU, for Tu.Arch, under Key. Fails where a
// worker could not optimize it from the job alone: no pragma workload (it
// would come from a recording on this machine), a kernel template (the unit
// holds no instantiation), a unit without the kernel's definition.
llvm::Expected<memory::QueueJob> queueJobFor(const frontend::KernelSummary &K, const TuContext &Tu,
                                             const memory::CacheKey &Key);

class QueueSubmitter {
public:
  // UserDir: the user cache, where an unreachable queue's back-off is shared
  // with other compiles (memory/remote/RemoteBackoff.h); not written when
  // ReadOnly.
  QueueSubmitter(std::string UserDir, bool ReadOnly)
      : CacheDir(std::move(UserDir)), CacheReadOnly(ReadOnly) {}

  // What became of a kernel, in words for the compile's note
  // ("queued for a GPU worker on redis://host:6379/kopt"), with the new job's
  // id; Warning where the queue could not be used (the kernel is compiled as
  // written all the same).
  struct Outcome {
    std::string Text;
    bool Warning = false;
    std::string JobId = {};
  };
  Outcome submit(const frontend::KernelSummary &K, const TuContext &Tu,
                 const memory::CacheKey &Key);

private:
  std::string CacheDir;
  bool CacheReadOnly;
  std::unique_ptr<memory::JobQueue> Queue;
  std::string Broken; // Why the queue cannot be used by this process (said once).
};

} // namespace kopt::driver
