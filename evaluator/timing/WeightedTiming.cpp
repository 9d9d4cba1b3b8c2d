#include "evaluator/timing/WeightedTiming.h"

#include <algorithm>
#include <utility>

namespace kopt::evaluator {

WeightedPlan planWeightedTiming(llvm::ArrayRef<uint64_t> Weights, llvm::ArrayRef<double> OriginalMs,
                                size_t MaxLaunches) {
  WeightedPlan Plan;
  const size_t N = std::min(Weights.size(), OriginalMs.size());
  if (N == 0 || MaxLaunches == 0 ||
      std::any_of(OriginalMs.begin(), OriginalMs.begin() + long(N),
                  [](double Ms) { return Ms <= 0; }))
    return Plan;
  std::vector<double> Time(N); // The original's total time in each launch.
  double Total = 0, Launches = 0;
  for (size_t I = 0; I < N; ++I) {
    Time[I] = double(Weights[I]) * OriginalMs[I];
    Total += Time[I];
    Launches += double(Weights[I]);
  }
  if (Total <= 0)
    return Plan;
  Plan.MeanMs = Total / Launches;
  // Runs of consecutive launches, each closed once the time so far reaches
  // its part of the total; a launch that alone takes a run's part starts its own.
  const size_t Runs = std::min(MaxLaunches, N);
  std::vector<std::pair<size_t, size_t>> Cuts; // [Begin, End) of each run.
  size_t Begin = 0;
  double SoFar = 0;
  for (size_t I = 0; I < N; ++I) {
    if (Time[I] >= Total / double(Runs) && I > Begin && Cuts.size() + 2 <= Runs) {
      Cuts.push_back({Begin, I});
      Begin = I;
    }
    SoFar += Time[I];
    bool Full = SoFar >= Total * double(Cuts.size() + 1) / double(Runs);
    if (I + 1 == N || (Full && Cuts.size() + 1 < Runs)) {
      Cuts.push_back({Begin, I + 1});
      Begin = I + 1;
    }
  }
  for (auto [From, To] : Cuts) {
    size_t Heaviest = From;
    double RunTime = 0;
    for (size_t J = From; J < To; ++J) {
      RunTime += Time[J];
      if (Time[J] > Time[Heaviest])
        Heaviest = J;
    }
    Plan.Launches.push_back({Heaviest, RunTime / Total, OriginalMs[Heaviest]});
  }
  return Plan;
}

std::vector<double> weightedSamples(const WeightedPlan &Plan,
                                    llvm::ArrayRef<std::vector<double>> PerLaunch) {
  if (Plan.empty() || PerLaunch.size() != Plan.Launches.size())
    return {};
  size_t Rounds = PerLaunch.front().size();
  for (const std::vector<double> &S : PerLaunch)
    Rounds = std::min(Rounds, S.size());
  std::vector<double> Out(Rounds, 0.0);
  for (size_t J = 0; J < Plan.Launches.size(); ++J) {
    const TimedLaunch &T = Plan.Launches[J];
    for (size_t R = 0; R < Rounds; ++R)
      Out[R] += Plan.MeanMs * T.Share * PerLaunch[J][R] / T.OriginalMs;
  }
  return Out;
}

double weightedSpeedup(const WeightedPlan &Plan, llvm::ArrayRef<double> Speedups) {
  if (Plan.empty() || Speedups.size() != Plan.Launches.size())
    return 0;
  double Relative = 0; // The variant's total time over the original's.
  for (size_t J = 0; J < Speedups.size(); ++J) {
    if (Speedups[J] <= 0)
      return 0;
    Relative += Plan.Launches[J].Share / Speedups[J];
  }
  return 1 / Relative;
}

} // namespace kopt::evaluator
