#include "report/PlotAxis.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace kopt::report;

namespace {
std::vector<std::string> labels(const Axis &A) {
  std::vector<std::string> Out;
  for (const Tick &T : A.ticks())
    Out.push_back(T.Label);
  return Out;
}
} // namespace

TEST(PlotAxis, LinearWidensToRoundSteps) {
  Axis A = Axis::linear(0.3, 9.2);
  EXPECT_DOUBLE_EQ(A.lo(), 0);
  EXPECT_DOUBLE_EQ(A.hi(), 10);
  EXPECT_EQ(labels(A), (std::vector<std::string>{"0", "2", "4", "6", "8", "10"}));
  EXPECT_DOUBLE_EQ(A.fraction(5), 0.5);
  Axis Flat = Axis::linear(3, 3);
  EXPECT_LT(Flat.lo(), 3);
  EXPECT_GT(Flat.hi(), 3);
}

TEST(PlotAxis, IntegersHaveWholeSteps) {
  EXPECT_EQ(labels(Axis::integers(0, 19)), (std::vector<std::string>{"0", "5", "10", "15", "20"}));
  EXPECT_EQ(labels(Axis::integers(0, 3)), (std::vector<std::string>{"0", "1", "2", "3"}));
}

TEST(PlotAxis, LogarithmicOnOneTwoFive) {
  Axis A = Axis::logarithmic(0.59, 5.99);
  EXPECT_DOUBLE_EQ(A.lo(), 0.5);
  EXPECT_DOUBLE_EQ(A.hi(), 10);
  EXPECT_TRUE(A.isLog());
  EXPECT_EQ(labels(A), (std::vector<std::string>{"0.5", "1", "2", "5", "10"}));
  EXPECT_NEAR(A.fraction(1), std::log10(2) / std::log10(20), 1e-12);
  // Many decades: decades only, every other one labelled past six.
  Axis Wide = Axis::logarithmic(0.001, 1e6);
  std::vector<std::string> Decades;
  for (const Tick &T : Wide.ticks())
    if (!T.Label.empty())
      Decades.push_back(T.Label);
  EXPECT_EQ(Decades, (std::vector<std::string>{"0.001", "0.1", "10", "1000", "100k"}));
}

TEST(PlotAxis, TickLabelsAreShort) {
  EXPECT_EQ(tickLabel(0), "0");
  EXPECT_EQ(tickLabel(0.25), "0.25");
  EXPECT_EQ(tickLabel(12), "12");
  EXPECT_EQ(tickLabel(2500), "2500");
  EXPECT_EQ(tickLabel(25000), "25k");
  EXPECT_EQ(tickLabel(4.8e6), "4.8M");
  EXPECT_EQ(tickLabel(6.69e10), "66.9G");
}
