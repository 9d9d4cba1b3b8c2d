// A compile's kernels share their time by one launch of each
// (driver/optimize/UnitTimeShare.h).
#include "driver/optimize/UnitTimeShare.h"

#include <gtest/gtest.h>

using namespace kopt::driver;

namespace {
int Heavy, Light, Middle; // Their addresses are the kernels.
} // namespace

TEST(UnitTimeShare, TimeFollowsEachKernelsLaunch) {
  UnitTimeShare Share({{&Heavy, 990}, {&Light, 10}}, 30);
  EXPECT_TRUE(Share.covers(&Heavy));
  EXPECT_FALSE(Share.covers(&Middle));
  EXPECT_DOUBLE_EQ(Share.fractionLeft(&Heavy), 0.99);
  EXPECT_DOUBLE_EQ(Share.secondsFor(&Heavy), 29.7);
  EXPECT_DOUBLE_EQ(Share.secondsFor(&Light), 0.3);
  EXPECT_DOUBLE_EQ(Share.secondsFor(&Middle), 0);
}

TEST(UnitTimeShare, WhatAKernelLeavesGoesToTheKernelsAfterIt) {
  UnitTimeShare Share({{&Heavy, 2}, {&Middle, 1}, {&Light, 1}}, 40);
  EXPECT_DOUBLE_EQ(Share.secondsFor(&Heavy), 20);
  Share.spent(&Heavy, 8); // It found nothing to try after 8 s.
  EXPECT_DOUBLE_EQ(Share.leftSeconds(), 32);
  EXPECT_DOUBLE_EQ(Share.fractionLeft(&Middle), 0.5);
  EXPECT_DOUBLE_EQ(Share.secondsFor(&Middle), 16);
  Share.spent(&Middle, 20); // An overrun (its four evaluations) is taken from the rest.
  EXPECT_DOUBLE_EQ(Share.secondsFor(&Light), 12);
  Share.spent(&Light, 30);
  EXPECT_DOUBLE_EQ(Share.leftSeconds(), 0);
  EXPECT_DOUBLE_EQ(Share.secondsFor(&Light), 0);
  Share.spent(&Light, 5); // Once only.
  EXPECT_DOUBLE_EQ(Share.leftSeconds(), 0);
}

TEST(UnitTimeShare, ALaunchTooShortToTimeCountsAsTheShortestOther) {
  UnitTimeShare Share({{&Heavy, 3}, {&Light, 0}, {&Middle, 1}}, 10);
  EXPECT_DOUBLE_EQ(Share.fractionLeft(&Light), 0.2);
  EXPECT_DOUBLE_EQ(Share.fractionLeft(&Heavy), 0.6);
  UnitTimeShare Untimed({{&Heavy, 0}, {&Light, 0}}, -5);
  EXPECT_DOUBLE_EQ(Untimed.fractionLeft(&Heavy), 0.5);
  EXPECT_DOUBLE_EQ(Untimed.leftSeconds(), 0);
}
