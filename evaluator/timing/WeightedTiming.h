// Timing weighted by how often the application made each launch (issue 17):
// where a workload has launches recorded by `kopt record`, the objective is
// the application's total time in the kernel, the sum over its distinct
// launches of count * time. Timing every recorded launch would multiply the
// cost of each evaluation, so the recorded launches (in Workload::Recorded
// order, which follows their scalars) are cut into at most MaxTimedLaunches
// runs of about equal shares of the original's total time, measured once a
// workload; each run is timed on its launch that takes the most time, and
// stands for the whole run. The interleaved samples of those launches are
// combined round by round into samples of the application's mean time per
// launch, and the sequential test (SequentialTest.h) decides on those: its
// speedup is the total time's. Needs no GPU.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kopt::evaluator {

inline constexpr size_t MaxTimedLaunches = 3;

struct TimedLaunch {
  size_t Index = 0;      // Into Workload::Recorded.
  double Share = 0;      // Of the original's total time: the launches it stands for.
  double OriginalMs = 0; // The original's time on it, measured alone.
};

struct WeightedPlan {
  std::vector<TimedLaunch> Launches; // In Workload::Recorded order.
  double MeanMs = 0;                 // The original's mean time per launch of the application.
  bool empty() const { return Launches.empty(); }
};

// Weights[i] (RecordedLaunch::Weight) and OriginalMs[i] of each recorded
// launch. Empty where there is none or a time is missing (not positive).
WeightedPlan planWeightedTiming(llvm::ArrayRef<uint64_t> Weights, llvm::ArrayRef<double> OriginalMs,
                                size_t MaxLaunches = MaxTimedLaunches);

// Round r of the measurement as the application's mean time per launch:
// MeanMs * sum_j Share_j * PerLaunch[j][r] / OriginalMs_j, for the rounds
// that every timed launch has. PerLaunch is parallel to Plan.Launches.
std::vector<double> weightedSamples(const WeightedPlan &Plan,
                                    llvm::ArrayRef<std::vector<double>> PerLaunch);

// The total time's speedup from each timed launch's: 1 / sum_j Share_j / Speedup_j.
double weightedSpeedup(const WeightedPlan &Plan, llvm::ArrayRef<double> Speedups);

} // namespace kopt::evaluator
