// The result cache's counters (ShardedCounters.h: sharded as ccache does, so no
// concurrent update is lost).
#pragma once

#include "memory/ShardedCounters.h"

#include <array>

namespace kopt::memory {

// Hits and misses count kernel lookups; direct hits and misses count translation
// units (DirectManifest.h): a direct hit looks no kernel up. A remote hit is a
// lookup that the project and user caches missed and a remote served.
enum class Counter {
  ProjectHits,
  UserHits,
  RemoteHits,
  Misses,
  Stores,
  Errors,
  Evictions,
  DirectHits,
  DirectMisses
};
constexpr size_t NumCounters = 9;

// "hits_project", "hits_user", "hits_remote", "misses", "stores", "errors",
// "evictions", "direct_hits", "direct_misses".
llvm::StringRef counterName(Counter C);

struct CacheCounters {
  std::array<uint64_t, NumCounters> Values{};
  uint64_t &operator[](Counter C) { return Values[static_cast<size_t>(C)]; }
  uint64_t operator[](Counter C) const { return Values[static_cast<size_t>(C)]; }
};

class CacheStats {
public:
  explicit CacheStats(std::string StatsDir); // <cache>/stats

  // Adds to this process's shard. Fails when the directory is not writable.
  llvm::Error add(Counter C, uint64_t N = 1) { return Shards.add(static_cast<size_t>(C), N); }
  // The sum over all shards; unreadable shards count as zero.
  CacheCounters total() const;
  llvm::Error zero() { return Shards.zero(); }

private:
  ShardedCounters Shards;
};

} // namespace kopt::memory
