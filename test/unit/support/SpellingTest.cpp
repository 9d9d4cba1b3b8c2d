#include "support/Spelling.h"

#include <gtest/gtest.h>

using kopt::closestSpelling;

TEST(Spelling, NearestWithinTheLimitWinsAndTiesGoToTheFirst) {
  EXPECT_EQ(closestSpelling("inspct", {"device", "inspect", "version"}, 2).value_or(""), "inspect");
  EXPECT_EQ(closestSpelling("ab", {"ax", "ay"}, 1).value_or(""), "ax");
  EXPECT_FALSE(closestSpelling("frobnicate", {"device", "inspect"}, 2).has_value());
}

TEST(Spelling, CaseIsIgnoredOnlyWhenAskedAndTheCandidateKeepsItsCase) {
  EXPECT_FALSE(closestSpelling("BLOCK", {"block"}, 1).has_value());
  EXPECT_EQ(closestSpelling("BLOK", {"block"}, 1, /*IgnoreCase=*/true).value_or(""), "block");
  EXPECT_EQ(closestSpelling("grid", {"", "Grid"}, 0, true).value_or(""), "Grid");
}
