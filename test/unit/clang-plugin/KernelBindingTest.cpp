// Pragma clauses checked against the parameters of the kernel they apply to.
#include "clang-plugin/pragma/KernelBinding.h"
#include "clang-plugin/pragma/ClauseParser.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

// saxpy-like: (int n, float a, const float *x, float *y, Pair p, int count)
std::vector<KernelParam> params() {
  return {{"n", "int", ParamCategory::Integer, false},
          {"a", "float", ParamCategory::Floating, false},
          {"x", "const float *", ParamCategory::Pointer, true},
          {"y", "float *", ParamCategory::Pointer, false},
          {"p", "Pair", ParamCategory::Other, false},
          {"count", "int", ParamCategory::Integer, false}};
}

std::string check(llvm::StringRef Text) {
  PragmaParseResult R = parsePragmaText(Text);
  std::vector<ClauseToken> Tokens = lexPragmaText(Text);
  if (!R.Clauses)
    return "parse error: " + renderDiagnostics(R.Diagnostics, Tokens);
  return renderDiagnostics(checkAgainstKernel(*R.Clauses, "saxpy", params()), Tokens);
}

} // namespace

TEST(KernelBinding, ValidClausesPass) {
  EXPECT_EQ(check("optimize launch(grid: (n + 255) / 256; block: 256; smem: n * 4) "
                  "args(n = 1 << 20, a = 2.5) buffers(x[n] in, y[n] inout)"),
            "");
  EXPECT_EQ(check("optimize args(a = n / 2.0, n = 8)"), ""); // Floats may use integers.
}

TEST(KernelBinding, UnknownParameters) {
  EXPECT_EQ(
      check("optimize args(counts = 4)"),
      "col 15: error: kernel 'saxpy' has no parameter named 'counts'; did you mean 'count'?\n");
  EXPECT_EQ(check("optimize args(nn = 4)"), // Too short to guess.
            "col 15: error: kernel 'saxpy' has no parameter named 'nn'\n");
  EXPECT_EQ(check("optimize buffers(z[4])"),
            "col 18: error: kernel 'saxpy' has no parameter named 'z'\n");
  EXPECT_EQ(check("optimize launch(grid: total / 256; block: 256)"),
            "col 23: error: kernel 'saxpy' has no parameter named 'total'\n");
  EXPECT_EQ(check("optimize buffers(x[len])"),
            "col 20: error: kernel 'saxpy' has no parameter named 'len'\n");
}

TEST(KernelBinding, BuffersArePointers) {
  EXPECT_EQ(check("optimize buffers(n[4])"),
            "col 18: error: 'buffers' describes pointer parameters; 'n' has type 'int'\n");
  EXPECT_EQ(check("optimize buffers(x[n] out)"),
            "col 23: warning: buffer 'x' is marked 'out' but points to const (type 'const float "
            "*')\n");
}

TEST(KernelBinding, ArgsAreScalars) {
  EXPECT_EQ(check("optimize args(y = 0)"),
            "col 15: error: 'y' is a pointer parameter; describe it with 'buffers', not 'args'\n");
  EXPECT_EQ(check("optimize args(p = 0)"),
            "col 15: error: 'args' cannot give a value to 'p' of type 'Pair'\n");
  EXPECT_EQ(check("optimize args(n = 1.5)"),
            "col 19: error: 'n' has integer type 'int'; '1.5' is a floating-point number\n");
  EXPECT_EQ(check("optimize args(n = a)"),
            "col 19: error: expected an integer parameter; 'a' has type 'float'\n");
  EXPECT_EQ(check("optimize args(a = x)"),
            "col 19: error: expected a scalar parameter; 'x' has type 'const float *'\n");
}

TEST(KernelBinding, ExpressionsUseIntegerParameters) {
  EXPECT_EQ(check("optimize launch(grid: a; block: 1)"),
            "col 23: error: expected an integer parameter; 'a' has type 'float'\n");
  EXPECT_EQ(check("optimize buffers(y[x])"),
            "col 20: error: expected a scalar parameter; 'x' has type 'const float *'\n");
}

TEST(KernelBinding, ArgsCannotDependOnThemselves) {
  EXPECT_EQ(check("optimize args(n = n + 1)"),
            "col 15: error: the value of 'n' depends on itself\n");
  EXPECT_EQ(check("optimize args(n = 2 * a, a = n)"),
            "col 15: error: the value of 'n' depends on itself\n"
            "col 23: error: expected an integer parameter; 'a' has type 'float'\n"
            "col 26: error: the value of 'a' depends on itself\n");
}
