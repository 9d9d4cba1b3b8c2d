// The loop's time budget with the next evaluation's predicted cost
// (agents/EvaluationPace.h), on a fake clock: long evaluations end within
// the budget instead of one past it.
#include "agents/EvaluationPace.h"

#include <gtest/gtest.h>

#include <vector>

using namespace kopt::agents;

namespace {

struct LoopRun {
  unsigned Evaluations = 0;
  double Ended = 0;
};

// The skills engine's loop on a fake clock: the original's measurement, then
// evaluations of the given costs (repeated) while the next one fits.
LoopRun loop(double Budget, double BaselineSeconds, const std::vector<double> &Costs) {
  LoopRun R;
  double Now = BaselineSeconds;
  while (mayEvaluate(Now, Now - BaselineSeconds, R.Evaluations, Budget)) {
    Now += Costs[R.Evaluations % Costs.size()];
    ++R.Evaluations;
  }
  R.Ended = Now;
  return R;
}

TEST(EvaluationPace, PredictsTheMeanSoFar) {
  EXPECT_EQ(predictedEvaluationSeconds(0, 0), 0);
  EXPECT_DOUBLE_EQ(predictedEvaluationSeconds(12, 3), 4);
}

TEST(EvaluationPace, TheFirstEvaluationFitsWhileTimeIsLeft) {
  EXPECT_TRUE(nextEvaluationFits(50, 0, 0, 60));
  EXPECT_FALSE(nextEvaluationFits(60, 0, 0, 60)); // Nothing left at all.
}

TEST(EvaluationPace, ASlowKernelStillGetsItsFirstEvaluations) {
  // A 1.1 s kernel at 15 s: measuring the original took 16 s, each
  // evaluation about 9 s. It gets MinEvaluations, and no more.
  LoopRun R = loop(15, 16, {9});
  EXPECT_EQ(R.Evaluations, MinEvaluations);
  EXPECT_DOUBLE_EQ(R.Ended, 16 + 9.0 * MinEvaluations);
  EXPECT_TRUE(mayEvaluate(100, 0, 0, 15));
  EXPECT_FALSE(mayEvaluate(100, 80, MinEvaluations, 15));
}

TEST(EvaluationPace, TheLastEvaluationEndsWithinTheBudget) {
  // A 1 s kernel: 10 s for the original, 4 s a screened-out variant, 6 s a
  // confirmed one. The check at the start alone would end at 62 s.
  LoopRun R = loop(60, 10, {4, 4, 6});
  EXPECT_LE(R.Ended, 60);
  EXPECT_GE(R.Evaluations, 6u);
  // Steady costs: every evaluation that fits, and no more.
  R = loop(60, 10, {5});
  EXPECT_EQ(R.Evaluations, 10u);
  EXPECT_DOUBLE_EQ(R.Ended, 60);
  R = loop(60, 12, {5});
  EXPECT_EQ(R.Evaluations, 9u);
  EXPECT_LE(R.Ended, 60);
}

TEST(EvaluationPace, ShortKernelsUseTheWholeBudget) {
  // Evaluations of a fraction of a second: the prediction costs at most one.
  LoopRun R = loop(15, 1, {0.3});
  EXPECT_GE(R.Evaluations, 45u);
  EXPECT_LE(R.Ended, 15);
}

} // namespace
