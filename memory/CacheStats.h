// The result cache's counters, sharded as ccache does: each process adds to one
// of a few shard files, each read-modified-written under its own lock, so no
// concurrent update is lost and parallel compiles rarely wait on each other.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <array>
#include <cstdint>
#include <string>

namespace kopt::memory {

// Hits and misses count kernel lookups; direct hits and misses count translation
// units (DirectManifest.h): a direct hit looks no kernel up.
enum class Counter {
  ProjectHits,
  UserHits,
  Misses,
  Stores,
  Errors,
  Evictions,
  DirectHits,
  DirectMisses
};
constexpr size_t NumCounters = 8;

// "hits_project", "hits_user", "misses", "stores", "errors", "evictions",
// "direct_hits", "direct_misses".
llvm::StringRef counterName(Counter C);

struct CacheCounters {
  std::array<uint64_t, NumCounters> Values{};
  uint64_t &operator[](Counter C) { return Values[static_cast<size_t>(C)]; }
  uint64_t operator[](Counter C) const { return Values[static_cast<size_t>(C)]; }
};

class CacheStats {
public:
  static constexpr unsigned NumShards = 16;

  explicit CacheStats(std::string StatsDir) : Dir(std::move(StatsDir)) {} // <cache>/stats

  // Adds to this process's shard. Fails when the directory is not writable.
  llvm::Error add(Counter C, uint64_t N = 1);
  // The sum over all shards; unreadable shards count as zero.
  CacheCounters total() const;
  llvm::Error zero();

private:
  std::string shardPath(unsigned Shard) const;
  std::string Dir;
};

} // namespace kopt::memory
