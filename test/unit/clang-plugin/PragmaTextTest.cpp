#include "clang-plugin/pragma/PragmaText.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

TEST(PragmaText, FindsTheDirectiveInItsSpellings) {
  EXPECT_TRUE(containsKoptPragma("#pragma kopt optimize\n__global__ void k() {}"));
  EXPECT_TRUE(containsKoptPragma("int x;\n  #  pragma   kopt optimize launch(grid: 1; block: 1)"));
  EXPECT_TRUE(containsKoptPragma("#pragma\tkopt\toptimize"));
  EXPECT_TRUE(containsKoptPragma("_Pragma(\"kopt optimize\") __global__ void k() {}"));
  EXPECT_TRUE(containsKoptPragma("#pragma kopt"));
}

TEST(PragmaText, IgnoresOtherPragmasAndLookalikes) {
  EXPECT_FALSE(containsKoptPragma("#pragma once\n#pragma unroll 4\n"));
  EXPECT_FALSE(containsKoptPragma("#pragma kopter\n"));
  EXPECT_FALSE(containsKoptPragma("int a; // see #pragma kopt below\n"));
  EXPECT_FALSE(containsKoptPragma("#pragmakopt\n"));
  EXPECT_FALSE(containsKoptPragma(""));
}

TEST(PragmaText, BlankingKeepsLineNumbersAndContinuations) {
  std::string In = "#include <x>\n"
                   "#pragma kopt optimize launch(grid: 1; \\\n"
                   "    block: 32)\n"
                   "__global__ void k() {}\n"
                   "#pragma unroll\n";
  EXPECT_EQ(blankKoptPragmas(In), "#include <x>\n"
                                  "\n"
                                  "\n"
                                  "__global__ void k() {}\n"
                                  "#pragma unroll\n");
}

TEST(PragmaText, BlankingLeavesTextWithoutPragmasUnchanged) {
  std::string In = "a\r\nb\n\nc"; // No trailing newline, CRLF kept.
  EXPECT_EQ(blankKoptPragmas(In), In);
}

TEST(PragmaText, TellsWhereAMacroCouldWriteThePragma) {
  EXPECT_TRUE(usesPragmaOperator("#define KOPT(x) _Pragma(#x)\n"));
  EXPECT_FALSE(usesPragmaOperator("#pragma unroll\n"));
  EXPECT_TRUE(mentionsKoptWord("KOPT(kopt optimize launch(grid: 1; block: 32))"));
  EXPECT_TRUE(mentionsKoptWord("_Pragma( \"kopt optimize\" )"));
  EXPECT_TRUE(mentionsKoptWord("kopt"));
  EXPECT_FALSE(mentionsKoptWord("#include \"kopt_helpers.h\"\nint KOPT_N = kopts;\n"));
  EXPECT_FALSE(mentionsKoptWord("int nokopt;"));
}
