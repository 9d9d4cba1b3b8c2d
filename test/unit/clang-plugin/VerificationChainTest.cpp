// repeat(N) (issue 31): parsed, its default from the buffers' directions, and
// its limit at check time.
#include "clang-plugin/model/VerificationChain.h"
#include "clang-plugin/pragma/ClauseParser.h"
#include "clang-plugin/pragma/WorkloadCheck.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

PragmaClauses parsed(llvm::StringRef Text) {
  PragmaParseResult R = parsePragmaText(Text);
  EXPECT_TRUE(R.Clauses) << Text.str() << "\n"
                         << renderDiagnostics(R.Diagnostics, lexPragmaText(Text));
  return R.Clauses ? *R.Clauses : PragmaClauses();
}

std::string rejected(llvm::StringRef Text) {
  PragmaParseResult R = parsePragmaText(Text);
  EXPECT_FALSE(R.Clauses) << Text.str();
  return renderDiagnostics(R.Diagnostics, lexPragmaText(Text));
}

KernelParam pointer(std::string Name, bool Const) {
  KernelParam P;
  P.Name = std::move(Name);
  P.Type = Const ? "const float *" : "float *";
  P.ElementType = "float";
  P.Category = ParamCategory::Pointer;
  P.PointeeIsConst = Const;
  return P;
}

KernelParam integer(std::string Name) {
  KernelParam P;
  P.Name = std::move(Name);
  P.Type = P.ElementType = "int";
  P.Category = ParamCategory::Integer;
  return P;
}

const char *const Step = "optimize launch(grid: 4; block: 256) args(n = 1024) ";

} // namespace

TEST(VerificationChain, RepeatIsAConstantInteger) {
  EXPECT_EQ(parsed("optimize repeat(5)").Repeat, 5);
  EXPECT_EQ(parsed("optimize repeat(2 * 10)").Repeat, 20);
  EXPECT_EQ(parsed("optimize repeat(1)").Repeat, 1);
  EXPECT_FALSE(parsed("optimize").Repeat);
  EXPECT_EQ(parsed("optimize tol(rtol = 1e-5), repeat(3) noalias").Repeat, 3);
}

TEST(VerificationChain, BadRepeatValuesAreRefusedWhereTheyStand) {
  EXPECT_EQ(rejected("optimize repeat(0)"), "col 17: error: 'repeat' must be at least 1, not 0\n");
  EXPECT_EQ(rejected("optimize repeat(-1)"),
            "col 17: error: 'repeat' must be at least 1, not -1\n");
  EXPECT_EQ(rejected("optimize repeat(x)"),
            "col 17: error: expected a constant for 'repeat'; 'x' names a kernel parameter\n");
  EXPECT_EQ(rejected("optimize repeat(2.5)"),
            "col 17: error: expected an integer for 'repeat'; '2.5' is a floating-point number\n");
  EXPECT_EQ(rejected("optimize repeat(2, 3)"),
            "col 18: error: expected ')' in 'repeat' clause, found ','\n");
  EXPECT_NE(rejected("optimize repeat(2) repeat(3)").find("'repeat'"), std::string::npos);
}

TEST(VerificationChain, DefaultIsTwentyWithAnInOutBufferElseOne) {
  std::vector<KernelParam> Params = {integer("n"), pointer("x", true), pointer("y", false)};
  // Declared directions.
  EXPECT_EQ(verificationChain(parsed(std::string(Step) + "buffers(x[n] in, y[n] inout)"), Params),
            DefaultInOutChain);
  EXPECT_EQ(verificationChain(parsed(std::string(Step) + "buffers(x[n] in, y[n] out)"), Params),
            1u);
  // Inferred: y is a pointer to non-const, so read and written.
  EXPECT_EQ(verificationChain(parsed(std::string(Step) + "buffers(x[n], y[n])"), Params),
            DefaultInOutChain);
  std::vector<KernelParam> ReadOnly = {integer("n"), pointer("x", true)};
  EXPECT_EQ(verificationChain(parsed(std::string(Step) + "buffers(x[n])"), ReadOnly), 1u);
  // repeat(N) over either default.
  EXPECT_EQ(verificationChain(parsed(std::string(Step) + "buffers(x[n], y[n]) repeat(1)"), Params),
            1u);
  EXPECT_EQ(
      verificationChain(parsed(std::string(Step) + "buffers(x[n] in, y[n] out) repeat(7)"), Params),
      7u);
}

TEST(VerificationChain, AbsurdRepeatIsRefusedAtCheckTime) {
  std::vector<KernelParam> Params = {integer("n"), pointer("y", false)};
  WorkloadSubject K;
  K.Kernel = "step";
  K.Params = Params;
  std::string Text = std::string(Step) + "buffers(y[n] inout) repeat(20000)";
  PragmaClauses P = parsed(Text);
  ResolvedWorkload R = resolveWorkload(P, K);
  EXPECT_EQ(renderDiagnostics(R.Diagnostics, lexPragmaText(Text)),
            "col 73: error: repeat(20000) chains 20000 launches in every verification; kopt "
            "chains at most 10000\n");
  P = parsed(std::string(Step) + "buffers(y[n] inout) repeat(10000)");
  EXPECT_TRUE(resolveWorkload(P, K).Diagnostics.empty());
}
