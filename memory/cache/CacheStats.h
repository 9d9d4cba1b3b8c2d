// The result cache's counters (ShardedCounters.h: sharded as ccache does, so no
// concurrent update is lost).
#pragma once

#include "memory/cache/ShardedCounters.h"

#include <array>

namespace kopt::memory {

// Hits and misses count kernel lookups; direct hits and misses count translation
// units (DirectManifest.h): a direct hit looks no kernel up. A remote hit is a
// lookup that the project and user caches missed and a remote served. The
// fallback counters count kcc's compiles without kopt, one a reason
// (driver/kcc/Fallback.h says which is which), as ccache counts each reason it
// does not cache.
enum class Counter {
  ProjectHits,
  UserHits,
  RemoteHits,
  Misses,
  Stores,
  Errors,
  Evictions,
  DirectHits,
  DirectMisses,
  FallbackNoPragma,
  FallbackModeOff,
  FallbackNotNvcc,
  FallbackBadCommandLine,
  FallbackNoCompile,
  FallbackUnreadableSource,
  FallbackFrontEnd,
  FallbackRewrite
};
constexpr size_t NumCounters = 17;

// "hits_project", "hits_user", "hits_remote", "misses", "stores", "errors",
// "evictions", "direct_hits", "direct_misses", then "fallback_no_pragma" and
// the other "fallback_" counters.
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
