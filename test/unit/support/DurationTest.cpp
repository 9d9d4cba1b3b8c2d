// Durations as users write them and as kcc's progress line says them back: a
// budget read from an option prints in the same units, and a small share of a
// shared budget is not rounded to "0s".
#include "support/Duration.h"

#include <gtest/gtest.h>

namespace {

TEST(Duration, ParsesEveryUnit) {
  EXPECT_EQ(kopt::parseDurationSeconds("500ms"), 0.5);
  EXPECT_EQ(kopt::parseDurationSeconds("90s"), 90);
  EXPECT_EQ(kopt::parseDurationSeconds("2m"), 120);
  EXPECT_EQ(kopt::parseDurationSeconds("1.5h"), 5400);
  EXPECT_FALSE(kopt::parseDurationSeconds("15"));
  EXPECT_FALSE(kopt::parseDurationSeconds("15 parsecs"));
}

TEST(Duration, FormatsAsABudgetIsWritten) {
  EXPECT_EQ(kopt::formatDuration(0.4), "0.4s");
  EXPECT_EQ(kopt::formatDuration(2.25), "2.2s");
  EXPECT_EQ(kopt::formatDuration(3), "3s");
  EXPECT_EQ(kopt::formatDuration(15.84), "16s");
  EXPECT_EQ(kopt::formatDuration(120), "2m");
  EXPECT_EQ(kopt::formatDuration(125), "2m 5s");
  EXPECT_EQ(kopt::formatDuration(1800), "30m");
}

} // namespace
