#include "memory/CacheStats.h"

namespace kopt::memory {

namespace {
constexpr llvm::StringRef Names[NumCounters] = {"hits_project", "hits_user",     "misses",
                                                "stores",       "errors",        "evictions",
                                                "direct_hits",  "direct_misses", "hits_remote"};
} // namespace

llvm::StringRef counterName(Counter C) { return Names[static_cast<size_t>(C)]; }

CacheStats::CacheStats(std::string StatsDir) : Shards(std::move(StatsDir), Names) {}

CacheCounters CacheStats::total() const {
  CacheCounters Sum;
  std::vector<uint64_t> Values = Shards.total();
  std::copy(Values.begin(), Values.end(), Sum.Values.begin());
  return Sum;
}

} // namespace kopt::memory
