#include "memory/cache/CacheStats.h"

namespace kopt::memory {

namespace {
// In Counter's order; shards store names, so the order is free to change.
constexpr llvm::StringRef Names[NumCounters] = {"hits_project",
                                                "hits_user",
                                                "hits_remote",
                                                "misses",
                                                "stores",
                                                "errors",
                                                "evictions",
                                                "direct_hits",
                                                "direct_misses",
                                                "fallback_no_pragma",
                                                "fallback_mode_off",
                                                "fallback_not_nvcc",
                                                "fallback_bad_command_line",
                                                "fallback_no_compile",
                                                "fallback_unreadable_source",
                                                "fallback_front_end",
                                                "fallback_rewrite"};
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
