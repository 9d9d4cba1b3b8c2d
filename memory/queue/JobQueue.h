// The work queue on Redis Streams (issue 33): kcc submits a job on a cache
// miss; `kopt worker` processes on GPU hosts take jobs through a consumer
// group, which gives delivery, acknowledgement and the reclaiming of a dead
// worker's jobs (XAUTOCLAIM after a lease). No scheduler of our own: Redis
// keeps every state, and each change of state is one atomic script.
//
// Redis keys of queue NAME, all with the hash tag {NAME} so that a Redis
// Cluster keeps them in one slot and the scripts may touch them together:
//   kopt:queue:{NAME}:jobs:<arch>  a stream of jobs for one architecture, with
//                                  the consumer group "workers"; a job is
//                                  deleted from it once done or dead
//   kopt:queue:{NAME}:archs        the architectures that have a stream
//   kopt:queue:{NAME}:keys         cache key -> "queued" or "failed": a key is
//                                  never queued twice (a done key's entry is in
//                                  the remote cache, so kcc does not miss it)
//   kopt:queue:{NAME}:errors       job id -> the error of its last failed attempt
//   kopt:queue:{NAME}:dead         the dead-letter stream: jobs that failed
//                                  MaxAttempts times, with their error
//   kopt:queue:{NAME}:done         how many jobs were done
#pragma once

#include "memory/queue/QueueJob.h"
#include "memory/queue/QueueSpec.h"
#include "memory/remote/RedisConnection.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

// A job as a worker holds it: its stream entry and how often it was delivered
// (this delivery included).
struct QueuedMessage {
  std::string Id, Arch;
  std::string Key, Kernel, Origin, JobText;
  unsigned Deliveries = 1;
};

enum class SubmitState { Queued, AlreadyQueued, FailedBefore };

struct SubmitResult {
  SubmitState State = SubmitState::Queued;
  std::string Id; // The new job's stream id (Queued only).
};

struct QueueStatus {
  uint64_t Pending = 0, Running = 0, Done = 0, Failed = 0;
  struct Job {
    std::string Id, Arch, Kernel, Origin;
    std::string State;  // "pending", "running" or "failed".
    std::string Worker; // The consumer holding it (running), or the last one (failed).
    uint64_t AgeSeconds = 0;
    unsigned Attempts = 0;
    std::string Error; // The last failed attempt's.
  };
  std::vector<Job> Jobs; // Running, then pending, then failed.
};

class JobQueue {
public:
  static constexpr unsigned MaxAttempts = 3;

  explicit JobQueue(QueueSpec Spec);

  const QueueSpec &spec() const { return Spec; }

  // Adds Job unless its key is queued or failed already (one atomic script).
  llvm::Expected<SubmitResult> submit(const QueueJob &Job);

  // The workers' side. Consumer names the worker; LeaseMs is how long a job
  // may go without its worker renewing it before another worker takes it.

  // Creates Arch's stream and group where missing.
  llvm::Error prepare(llvm::StringRef Arch);
  // The oldest job of Arch whose lease ran out (XAUTOCLAIM), now Consumer's.
  llvm::Expected<std::optional<QueuedMessage>>
  claimStale(llvm::StringRef Arch, llvm::StringRef Consumer, unsigned LeaseMs);
  // A job never delivered, of one of Archs; waits up to WaitMs for one.
  llvm::Expected<std::optional<QueuedMessage>> readNew(const std::vector<std::string> &Archs,
                                                       llvm::StringRef Consumer, unsigned WaitMs);
  // Renews the lease of Consumer's jobs Ids of Arch; returns those it still
  // held (a job another worker took over after a lapse is not taken back).
  llvm::Expected<std::vector<std::string>> renew(llvm::StringRef Arch, llvm::StringRef Consumer,
                                                 const std::vector<std::string> &Ids);
  // Done: acknowledged and removed, its key no longer queued. False where the
  // job was acknowledged already (done by another worker).
  llvm::Expected<bool> complete(const QueuedMessage &M);
  // A failed attempt: its error kept, the job free for any worker at once.
  llvm::Error release(const QueuedMessage &M, llvm::StringRef Consumer, llvm::StringRef Error,
                      unsigned LeaseMs);
  // Out of attempts: the job moves to the dead-letter stream with Error, is
  // acknowledged, and its key is marked failed (never queued again).
  llvm::Error deadLetter(const QueuedMessage &M, llvm::StringRef Consumer, llvm::StringRef Error);
  // The error of M's last failed attempt ("" if none was recorded: its
  // worker died).
  llvm::Expected<std::string> lastError(const QueuedMessage &M);

  // `kopt queue status`: the counts, and the jobs waiting, running and failed.
  llvm::Expected<QueueStatus> status(size_t MaxListed = 100);

  // The Redis key of Arch's stream, and of the others (for tests and tools).
  std::string streamKey(llvm::StringRef Arch) const;
  std::string key(llvm::StringRef What) const;

private:
  llvm::Expected<RedisReply> script(llvm::StringRef Lua, const std::vector<std::string> &Keys,
                                    const std::vector<std::string> &Args);
  llvm::Expected<unsigned> deliveriesOf(llvm::StringRef Arch, llvm::StringRef Id);

  QueueSpec Spec;
  RedisConnection Connection;
};

} // namespace kopt::memory
