// The remote tier (RemoteTier.h) over one or more remote caches: read from each
// in turn, write to every one that is not read only. A remote that cannot be
// reached costs one warning and is then skipped for a back-off period, shared
// by all compiles through a file in the user cache (RemoteBackoff.h), so a
// build of 500 files does not wait 500 timeouts. Each remote keeps its own
// counters there too.
//   <user cache>/remote/<id>.backoff   until when a remote is skipped, and why
//   <user cache>/remote/<id>.url       the remote's masked URL, for `kopt cache -s`
//   <user cache>/stats/remote-<id>/N   its counters (ShardedCounters.h)
#pragma once

#include "memory/cache/RemoteTier.h"
#include "memory/remote/RemoteBackend.h"

#include <chrono>
#include <memory>
#include <vector>

namespace kopt::memory {

// A remote's counters: lookups it served, missed or failed (errors include
// corrupt entries), entries written, and time spent talking to it.
struct RemoteCounters {
  std::string Id, Url;
  uint64_t Hits = 0, Misses = 0, Errors = 0, Stores = 0, Microseconds = 0;
};

class RemoteStorage final : public RemoteTier {
public:
  // LocalReadOnly: the user cache must not change (no counters, no back-off).
  RemoteStorage(std::vector<RemoteSpec> Specs, std::string UserDir, bool LocalReadOnly);
  ~RemoteStorage() override;

  std::optional<Fetched> fetch(const CacheKey &Key, std::string &Warning) override;
  void publish(const CacheKey &Key, const std::string &Bytes, std::string &Warning) override;

  size_t size() const { return Remotes.size(); }
  const RemoteSpec &spec(size_t I) const;
  // Every key digest remote I holds.
  llvm::Expected<std::vector<std::string>> list(size_t I);
  // Uploads Bytes to remote I unless it holds Digest already; true if uploaded.
  llvm::Expected<bool> push(size_t I, llvm::StringRef Digest, llvm::StringRef Bytes);

  // The counters of every remote this user cache has talked to.
  static std::vector<RemoteCounters> countersIn(llvm::StringRef UserDir);
  static llvm::Error zeroCounters(llvm::StringRef UserDir);

private:
  struct Remote;
  // The remote's backend, or why it cannot be used now (backed off, broken).
  RemoteBackend *usable(Remote &R, std::string &Warning);
  // Counts and reports a failed operation; an unreachable remote backs off.
  void failed(Remote &R, llvm::Error E, llvm::StringRef What, std::string &Warning);
  void count(Remote &R, size_t Counter, uint64_t N = 1);

  std::vector<std::unique_ptr<Remote>> Remotes;
  std::string UserDir;
  bool LocalReadOnly;
};

} // namespace kopt::memory
