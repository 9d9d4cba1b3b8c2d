// Named counters in shard files, as ccache keeps its statistics: each process
// adds to one of 16 shards, read-modified-written under that shard's lock, so
// no concurrent update is lost and parallel compiles rarely wait on each other.
// A shard is "name value" lines; names a newer kopt writes are kept out of sums.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kopt::memory {

class ShardedCounters {
public:
  static constexpr unsigned NumShards = 16;

  ShardedCounters(std::string ShardDir, llvm::ArrayRef<llvm::StringRef> CounterNames)
      : Dir(std::move(ShardDir)), Names(CounterNames) {}

  // Adds N to counter Index (of Names) in this process's shard; fails when the
  // directory cannot be written.
  llvm::Error add(size_t Index, uint64_t N = 1);
  // Each counter summed over the shards; unreadable shards count as zero.
  std::vector<uint64_t> total() const;
  llvm::Error zero();

private:
  std::string shardPath(unsigned Shard) const;
  std::vector<uint64_t> readShard(const std::string &Path) const;
  std::string formatShard(const std::vector<uint64_t> &Values) const;

  std::string Dir;
  llvm::ArrayRef<llvm::StringRef> Names; // Static tables only.
};

} // namespace kopt::memory
