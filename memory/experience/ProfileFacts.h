// The measured facts of KernelFacts.h from a profile's hardware counters: the
// profiler (evaluator/profile/KernelProfiler.h) reports CUPTI metric names, skills'
// predicates read short fact names (dram_throughput_pct, l2_hit_rate_pct).
#pragma once

#include "memory/experience/KernelFacts.h"

#include <map>
#include <optional>
#include <string>

namespace kopt::memory {

// The facts Counters (CUPTI metric name -> value) give; a fact whose counters
// are missing is left out, so it stays unknown to predicates.
ProfileMetrics metricsFromCounters(const std::map<std::string, double, std::less<>> &Counters);

// Floating-point operations the counters count (an FMA is two), all and of
// those double precision; empty where the profile has no instruction counts.
struct FlopCount {
  double All = 0, Fp64 = 0;
};
std::optional<FlopCount>
flopsFromCounters(const std::map<std::string, double, std::less<>> &Counters);

} // namespace kopt::memory
