#include "support/LineDirective.h"

#include <gtest/gtest.h>

using kopt::lineDirective;
using kopt::lineDirectiveNames;

TEST(LineDirective, NamesReadBackAsWritten) {
  std::string Text = lineDirective("a \"q\"\\b.cu") + "int x;\n" + lineDirective("k.cu", 7);
  EXPECT_EQ(lineDirectiveNames(Text), (std::vector<std::string>{"a \"q\"\\b.cu", "k.cu"}));
}

TEST(LineDirective, BothSpellingsOnceEachInOrder) {
  EXPECT_EQ(lineDirectiveNames("  #  line 3 \"b.cu\"\n# 1 \"a.h\" 1\n#line 4 \"b.cu\"\n"),
            (std::vector<std::string>{"b.cu", "a.h"}));
}

TEST(LineDirective, OtherDirectivesAndUnclosedNamesAreNotNames) {
  EXPECT_TRUE(lineDirectiveNames("#include \"a.h\"\n#linex 3 \"b\"\n#line \"c\"\n"
                                 "#line 3 \"unclosed\n#pragma once\n")
                  .empty());
}
