// The arithmetic of timing weighted by launch counts (evaluator/timing/WeightedTiming.h).
#include "evaluator/timing/WeightedTiming.h"

#include "evaluator/timing/TimingStatistics.h"

#include <gtest/gtest.h>

using namespace kopt::evaluator;

namespace {
std::vector<size_t> indexes(const WeightedPlan &P) {
  std::vector<size_t> Out;
  for (const TimedLaunch &T : P.Launches)
    Out.push_back(T.Index);
  return Out;
}

double shareSum(const WeightedPlan &P) {
  double Sum = 0;
  for (const TimedLaunch &T : P.Launches)
    Sum += T.Share;
  return Sum;
}
} // namespace

TEST(WeightedTiming, OneLaunchCarriesTheWholeTime) {
  WeightedPlan P = planWeightedTiming({5}, {2.0});
  ASSERT_EQ(P.Launches.size(), 1u);
  EXPECT_EQ(P.Launches[0].Index, 0u);
  EXPECT_DOUBLE_EQ(P.Launches[0].Share, 1.0);
  EXPECT_DOUBLE_EQ(P.MeanMs, 2.0);
}

TEST(WeightedTiming, EachRunOfEqualTimeIsTimedOnItsHeaviestLaunch) {
  // Six launches of a solver whose work shrinks with k; counts 1 each: the
  // time is 6+5+4+3+2+1 = 21; runs close once 7 and 14 are reached: {6,5},
  // {4}, {3,2,1}.
  WeightedPlan P = planWeightedTiming({1, 1, 1, 1, 1, 1}, {6, 5, 4, 3, 2, 1});
  EXPECT_EQ(indexes(P), (std::vector<size_t>{0, 2, 3}));
  EXPECT_NEAR(P.Launches[0].Share, 11.0 / 21, 1e-12);
  EXPECT_NEAR(P.Launches[1].Share, 4.0 / 21, 1e-12);
  EXPECT_NEAR(P.Launches[2].Share, 6.0 / 21, 1e-12);
  EXPECT_NEAR(shareSum(P), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(P.MeanMs, 21.0 / 6);
}

TEST(WeightedTiming, CountsDecideWhichLaunchesAreTimed) {
  // The same times, but the app makes the cheapest launch 100 times: it
  // carries 100 of the 120 ms and is timed alone in its run; the others are
  // one run, timed on the longest.
  WeightedPlan P = planWeightedTiming({1, 1, 1, 1, 1, 100}, {6, 5, 4, 3, 2, 1});
  EXPECT_EQ(indexes(P), (std::vector<size_t>{0, 5}));
  EXPECT_NEAR(P.Launches[0].Share, 20.0 / 120, 1e-12);
  EXPECT_NEAR(P.Launches[1].Share, 100.0 / 120, 1e-12);
  EXPECT_DOUBLE_EQ(P.Launches[1].OriginalMs, 1.0);
  EXPECT_NEAR(shareSum(P), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(P.MeanMs, 120.0 / 105);
}

TEST(WeightedTiming, NeverMoreLaunchesThanTheLimit) {
  std::vector<uint64_t> Weights(16, 7);
  std::vector<double> Ms(16, 0.5);
  EXPECT_EQ(planWeightedTiming(Weights, Ms).Launches.size(), MaxTimedLaunches);
  EXPECT_EQ(planWeightedTiming(Weights, Ms, 1).Launches.size(), 1u);
  EXPECT_NEAR(planWeightedTiming(Weights, Ms, 1).Launches[0].Share, 1.0, 1e-12);
}

TEST(WeightedTiming, NoPlanWithoutTimes) {
  EXPECT_TRUE(planWeightedTiming({}, {}).empty());
  EXPECT_TRUE(planWeightedTiming({1, 2}, {1.0, 0.0}).empty()); // A launch without its time.
}

TEST(WeightedTiming, SpeedupIsTheTotalTimesRatio) {
  // Launch A: 99 launches of 1 ms; B: 1 launch of 10 ms. The variant is 2x on
  // A and 1x on B: the application's time goes from 109 to 59.5 ms.
  WeightedPlan P = planWeightedTiming({99, 1}, {1.0, 10.0}, 2);
  ASSERT_EQ(P.Launches.size(), 2u);
  EXPECT_NEAR(weightedSpeedup(P, {2.0, 1.0}), 109.0 / 59.5, 1e-12);
  // Not the mean of the per-launch speedups, nor A's alone.
  EXPECT_GT(std::abs(weightedSpeedup(P, {2.0, 1.0}) - 1.5), 0.3);
  EXPECT_EQ(weightedSpeedup(P, {2.0}), 0); // A speedup for each timed launch.
}

TEST(WeightedTiming, CombinedSamplesAreTheApplicationsMeanTimePerLaunch) {
  WeightedPlan P = planWeightedTiming({99, 1}, {1.0, 10.0}, 2);
  // Rounds of the original at its measured times, of the variant at 2x on A.
  std::vector<std::vector<double>> Original = {{1.0, 1.0, 1.0}, {10.0, 10.0, 10.0, 10.0}};
  std::vector<std::vector<double>> Variant = {{0.5, 0.5, 0.5}, {10.0, 10.0, 10.0}};
  std::vector<double> O = weightedSamples(P, Original), V = weightedSamples(P, Variant);
  ASSERT_EQ(O.size(), 3u); // The rounds every launch has.
  EXPECT_NEAR(O[0], 109.0 / 100, 1e-12);
  EXPECT_NEAR(V[0], 59.5 / 100, 1e-12);
  EXPECT_NEAR(summarize(O).MedianMs / summarize(V).MedianMs, 109.0 / 59.5, 1e-12);
  EXPECT_NEAR(summarize(O).MedianMs / summarize(V).MedianMs, weightedSpeedup(P, {2.0, 1.0}), 1e-12);
}

TEST(WeightedTiming, ASlowerHeavyLaunchOutweighsAFasterLightOne) {
  // 3x faster on the launch with 10% of the time, 1.25x slower on the one with 90%.
  WeightedPlan P = planWeightedTiming({1, 9}, {1.0, 1.0}, 2);
  std::vector<std::vector<double>> Original = {{1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}};
  std::vector<std::vector<double>> Variant = {{1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3},
                                              {1.25, 1.25, 1.25, 1.25, 1.25}};
  double Speedup = summarize(weightedSamples(P, Original)).MedianMs /
                   summarize(weightedSamples(P, Variant)).MedianMs;
  EXPECT_LT(Speedup, 1.0);
  EXPECT_NEAR(Speedup, 1 / (0.1 / 3 + 0.9 * 1.25), 1e-12);
}
