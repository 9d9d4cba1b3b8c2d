// Clauses written back as a pragma line (a work queue's job carries it with the
// kernel's unit): the line parses to the same clauses, down to each number.
#include "clang-plugin/pragma/PragmaSource.h"
#include "clang-plugin/pragma/ClauseParser.h"
#include "clang-plugin/pragma/PragmaJson.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

PragmaClauses parse(llvm::StringRef Text) {
  PragmaParseResult R = parsePragmaText(Text);
  EXPECT_TRUE(R.Clauses) << Text.str() << "\n"
                         << renderDiagnostics(R.Diagnostics, lexPragmaText(Text));
  return R.Clauses ? *R.Clauses : PragmaClauses();
}

// What pragmaToJson leaves out: every value of an arg, ranges, buffer tolerances.
std::string extras(const PragmaClauses &P) {
  std::string Out;
  for (const ArgValue &A : P.Args.value_or(std::vector<ArgValue>{}))
    for (const ClauseExpr &E : A.MoreValues)
      Out += A.Name + "|" + E.Text + ";";
  for (const BufferSpec &B : P.Buffers.value_or(std::vector<BufferSpec>{})) {
    if (B.Range)
      Out += B.Name + " range " + B.Range->Low.Text + "," + B.Range->High.Text + ";";
    if (B.Tol)
      Out += B.Name + " tol " + std::to_string(B.Tol->Rtol.value_or(-1)) + "," +
             std::to_string(B.Tol->Atol.value_or(-1)) + ";";
  }
  return Out;
}

void expectRoundTrip(llvm::StringRef Text) {
  PragmaClauses First = parse(Text);
  std::string Line = pragmaSource(First);
  ASSERT_TRUE(llvm::StringRef(Line).starts_with("#pragma kopt optimize")) << Line;
  PragmaClauses Second = parse(llvm::StringRef(Line).drop_front(strlen("#pragma kopt ")));
  EXPECT_EQ(pragmaToJson(Second).dump(), pragmaToJson(First).dump()) << Line;
  EXPECT_EQ(extras(Second), extras(First)) << Line;
  EXPECT_EQ(pragmaSource(Second), Line);
}

} // namespace

TEST(PragmaSource, EveryClauseComesBack) {
  expectRoundTrip("optimize launch(grid: (n + 255) / 256, 4; block: 256, 1, 1; smem: 1024) "
                  "args(n = 1 << 20, a = 2.0f, k = 1 | n / 4 | n - 2) "
                  "buffers(x[n] in range(0, n), y[n] out tol(rtol = 1e-5), z[4 * n] inout, w[n]) "
                  "tol(rtol = 0.1, atol = 1e-7) budget(time = 1.5m, evals = 40, tokens = 9000) "
                  "skills(smem-tiling, -unroll, +vectorize) noalias engine(llm)");
  expectRoundTrip("optimize instantiation(float, 128) launch(grid: 1; block: 32)");
}

TEST(PragmaSource, AnEmptyPragmaStaysEmpty) {
  PragmaClauses P = parse("optimize");
  EXPECT_EQ(pragmaSource(P), "#pragma kopt optimize");
}

TEST(PragmaSource, NumbersAreExact) {
  PragmaClauses P = parse("optimize tol(rtol = 0.1, atol = 3e-9) budget(time = 0.3s)");
  EXPECT_EQ(pragmaSource(P), "#pragma kopt optimize tol(rtol = 0.10000000000000001, atol = 3e-09) "
                             "budget(time = 0.29999999999999999s)");
  expectRoundTrip("optimize tol(rtol = 0.1, atol = 3e-9) budget(time = 0.3s)");
}
