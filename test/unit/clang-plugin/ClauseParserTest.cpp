// The '#pragma kopt' clause parser on strings (no clang): what it accepts, and
// the diagnostics for what it does not.
#include "clang-plugin/pragma/ClauseParser.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

PragmaClauses accept(llvm::StringRef Text) {
  PragmaParseResult R = parsePragmaText(Text);
  EXPECT_TRUE(R.Clauses) << Text.str() << "\n"
                         << renderDiagnostics(R.Diagnostics, lexPragmaText(Text));
  return R.Clauses ? *R.Clauses : PragmaClauses();
}

// The diagnostics, rendered "col N: error: ...", one a line.
std::string reject(llvm::StringRef Text) {
  PragmaParseResult R = parsePragmaText(Text);
  EXPECT_FALSE(R.Clauses) << Text.str();
  return renderDiagnostics(R.Diagnostics, lexPragmaText(Text));
}

std::vector<std::string> texts(const std::vector<ClauseExpr> &Es) {
  std::vector<std::string> Out;
  for (const ClauseExpr &E : Es)
    Out.push_back(E.Text);
  return Out;
}

using Strings = std::vector<std::string>;

} // namespace

TEST(ClauseLexer, SplitsLikeClang) {
  std::vector<ClauseToken> T = lexPragmaText("a(x[n<<2]) = 1e-5 60s /* c */ 1'0 <: :>// rest");
  Strings Texts;
  for (const ClauseToken &Tok : T)
    Texts.push_back(Tok.Text);
  EXPECT_EQ(Texts, (Strings{"a", "(", "x", "[", "n", "<<", "2", "]", ")", "=", "1e-5", "60s", "1'0",
                            "[", "]", ""}));
  EXPECT_TRUE(T.back().is(ClauseToken::Kind::End));
  EXPECT_EQ(T[10].K, ClauseToken::Kind::Number);
  EXPECT_EQ(T[10].Offset, 13u);
  EXPECT_TRUE(T[10].LeadingSpace);
  EXPECT_FALSE(T[1].LeadingSpace);
}

TEST(ClauseParser, EmptyPragmaHasNoClauses) {
  PragmaClauses C = accept("optimize");
  EXPECT_FALSE(C.Launch);
  EXPECT_FALSE(C.Args);
  EXPECT_FALSE(C.NoAlias);
  EXPECT_FALSE(C.Engine);
}

TEST(ClauseParser, Launch) {
  PragmaClauses C =
      accept("optimize launch(grid: (n + 255) / 256, 4; block: 256, 1, 1; smem: 1024)");
  ASSERT_TRUE(C.Launch);
  EXPECT_EQ(texts(C.Launch->Grid), (Strings{"(n + 255) / 256", "4"}));
  EXPECT_EQ(texts(C.Launch->Block), (Strings{"256", "1", "1"}));
  ASSERT_TRUE(C.Launch->SharedMemory);
  EXPECT_EQ(C.Launch->SharedMemory->Text, "1024");

  // Any order, a trailing ';'.
  C = accept("optimize launch(block: 32; grid: 8;)");
  EXPECT_EQ(texts(C.Launch->Grid), (Strings{"8"}));
  EXPECT_FALSE(C.Launch->SharedMemory);
}

TEST(ClauseParser, ArgsAndBuffers) {
  PragmaClauses C =
      accept("optimize args(n = 1<<20, a = 2.0f) buffers(x[n] in, y[n * 2] inout, z[4])");
  ASSERT_TRUE(C.Args);
  ASSERT_EQ(C.Args->size(), 2u);
  EXPECT_EQ((*C.Args)[0].Name, "n");
  EXPECT_EQ((*C.Args)[0].Value.Text, "1<<20");
  EXPECT_EQ((*C.Args)[1].Value.Text, "2.0f");
  ASSERT_EQ(C.Buffers->size(), 3u);
  EXPECT_EQ((*C.Buffers)[0].Access, BufferAccess::In);
  EXPECT_EQ((*C.Buffers)[1].Size.Text, "n * 2");
  EXPECT_EQ((*C.Buffers)[1].Access, BufferAccess::InOut);
  EXPECT_FALSE((*C.Buffers)[2].Access);

  NumberBindings Values = resolveArgValues(C);
  EXPECT_EQ(Values["n"], ClauseNumber(int64_t(1) << 20));
  EXPECT_EQ(Values["a"], ClauseNumber(2.0));
}

TEST(ClauseParser, ArgsMayUseEachOtherInAnyOrder) {
  PragmaClauses C = accept("optimize args(m = n / 2, n = 1024, k = q)");
  NumberBindings Values = resolveArgValues(C);
  EXPECT_EQ(Values["m"], ClauseNumber(int64_t(512)));
  EXPECT_FALSE(Values.count("k")); // q has no value.
}

TEST(ClauseParser, TolBudgetSkillsNoaliasEngine) {
  PragmaClauses C = accept("optimize tol(rtol = 1e-5, atol = 0) budget(time = 1.5m, evals = 200, "
                           "tokens = 1<<16) skills(+vectorize-loads, -unroll, tile2d) noalias "
                           "engine(llm)");
  ASSERT_TRUE(C.Tol);
  EXPECT_DOUBLE_EQ(*C.Tol->Rtol, 1e-5);
  EXPECT_EQ(*C.Tol->Atol, 0.0);
  ASSERT_TRUE(C.Budget);
  EXPECT_DOUBLE_EQ(*C.Budget->TimeSeconds, 90);
  EXPECT_EQ(*C.Budget->Evals, 200);
  EXPECT_EQ(*C.Budget->Tokens, 65536);
  ASSERT_TRUE(C.Skills);
  ASSERT_EQ(C.Skills->size(), 3u);
  EXPECT_EQ((*C.Skills)[0].Id, "vectorize-loads");
  EXPECT_TRUE((*C.Skills)[0].Enabled);
  EXPECT_EQ((*C.Skills)[1].Id, "unroll");
  EXPECT_FALSE((*C.Skills)[1].Enabled);
  EXPECT_TRUE((*C.Skills)[2].Enabled);
  EXPECT_TRUE(C.NoAlias);
  EXPECT_EQ(C.Engine, EngineKind::Llm);
}

TEST(ClauseParser, DurationsInEveryUnit) {
  EXPECT_DOUBLE_EQ(*accept("optimize budget(time = 60s)").Budget->TimeSeconds, 60);
  EXPECT_DOUBLE_EQ(*accept("optimize budget(time = 500ms)").Budget->TimeSeconds, 0.5);
  EXPECT_DOUBLE_EQ(*accept("optimize budget(time = 2m)").Budget->TimeSeconds, 120);
  EXPECT_DOUBLE_EQ(*accept("optimize budget(time = 30 s)").Budget->TimeSeconds, 30);
}

TEST(ClauseParser, CommasBetweenClausesAreOptional) {
  PragmaClauses C = accept("optimize noalias, engine(auto), launch(grid: 1; block: 1)");
  EXPECT_TRUE(C.NoAlias);
  EXPECT_EQ(C.Engine, EngineKind::Auto);
  EXPECT_TRUE(C.Launch);
}

TEST(ClauseParserDiagnostics, Verb) {
  EXPECT_EQ(
      reject("optimise"),
      "col 1: error: unknown '#pragma kopt' directive 'optimise'; did you mean 'optimize'?\n");
  EXPECT_EQ(reject("frobnicate"),
            "col 1: error: unknown '#pragma kopt' directive 'frobnicate'; expected 'optimize'\n");
  EXPECT_EQ(reject(""),
            "col 1: error: expected 'optimize' after '#pragma kopt', found end of line\n");
  EXPECT_EQ(reject("(optimize)"),
            "col 1: error: expected 'optimize' after '#pragma kopt', found '('\n");
  PragmaParseResult R = parsePragmaText("optimse");
  ASSERT_EQ(R.Diagnostics.size(), 1u);
  EXPECT_EQ(R.Diagnostics[0].FixIt, "optimize");
}

TEST(ClauseParserDiagnostics, UnknownClausesWithSuggestions) {
  EXPECT_EQ(reject("optimize lanch(grid: 1; block: 1) noalais bufers(x[1])"),
            "col 10: error: unknown clause 'lanch' in '#pragma kopt optimize'; did you mean "
            "'launch'?\n"
            "col 35: error: unknown clause 'noalais' in '#pragma kopt optimize'; did you mean "
            "'noalias'?\n"
            "col 43: error: unknown clause 'bufers' in '#pragma kopt optimize'; did you mean "
            "'buffers'?\n");
  EXPECT_EQ(reject("optimize frobnicate"),
            "col 10: error: unknown clause 'frobnicate' in '#pragma kopt optimize'; expected "
            "launch, args, buffers, tol, budget, skills, noalias, fastmath, engine, instantiation "
            "or repeat\n");
  EXPECT_EQ(reject("optimize 42"),
            "col 10: error: expected a clause (launch, args, buffers, tol, budget, skills, "
            "noalias, fastmath, engine, instantiation or repeat), found '42'\n");
}

TEST(ClauseParserDiagnostics, RepeatedClausesAndKeys) {
  EXPECT_EQ(reject("optimize noalias engine(llm) noalias"),
            "col 30: error: clause 'noalias' appears more than once in '#pragma kopt optimize'\n"
            "col 10: note: previous 'noalias' clause is here\n");
  EXPECT_EQ(reject("optimize launch(grid: 1; block: 1; grid: 2)"),
            "col 36: error: 'grid' appears more than once in 'launch' clause\n"
            "col 17: note: previous 'grid' is here\n");
  EXPECT_EQ(reject("optimize args(n = 1, n = 2)"),
            "col 22: error: 'n' appears more than once in 'args' clause\n"
            "col 15: note: previous 'n' is here\n");
  EXPECT_EQ(reject("optimize skills(+a, -a)"),
            "col 22: error: 'a' appears more than once in 'skills' clause\n"
            "col 18: note: previous 'a' is here\n");
}

TEST(ClauseParserDiagnostics, Structure) {
  EXPECT_EQ(reject("optimize launch grid: 1"),
            "col 17: error: expected '(' after 'launch', found 'grid'\n");
  EXPECT_EQ(reject("optimize launch(grid: 1; block: 1"),
            "col 34: error: expected ';' or ')' in 'launch' clause, found end of line\n");
  EXPECT_EQ(reject("optimize launch(grid: 1)"),
            "col 24: error: 'launch' clause needs 'block: ...'\n");
  EXPECT_EQ(reject("optimize launch(grid 1; block: 1)"),
            "col 22: error: expected ':' after 'grid', found '1'\n");
  EXPECT_EQ(reject("optimize launch(grd: 1; block: 1)"),
            "col 17: error: unknown launch section 'grd' in 'launch' clause; did you mean "
            "'grid'?\n");
  EXPECT_EQ(reject("optimize launch(grid: 1, 2, 3, 4; block: 1)"),
            "col 32: error: 'grid' has more than 3 dimensions\n");
  EXPECT_EQ(reject("optimize args(n 4)"), "col 17: error: expected '=' after 'n', found '4'\n");
  EXPECT_EQ(reject("optimize buffers(x[n)"),
            "col 21: error: expected ']' in 'buffers' clause, found ')'\n");
  EXPECT_EQ(reject("optimize buffers(x[n] input)"),
            "col 23: error: unknown buffer direction 'input' in 'buffers' clause; did you mean "
            "'inout'?\n");
  EXPECT_EQ(reject("optimize buffers(x[n] in y[n])"),
            "col 26: error: expected ',' or ')' in 'buffers' clause, found 'y'\n");
  EXPECT_EQ(reject("optimize noalias(1)"), "col 17: error: clause 'noalias' takes no arguments\n");
  EXPECT_EQ(reject("optimize engine(llms)"),
            "col 17: error: unknown engine 'llms' in 'engine' clause; did you mean 'llm'?\n");
  EXPECT_EQ(reject("optimize engine(gpt)"),
            "col 17: error: unknown engine 'gpt' in 'engine' clause; expected 'skills', 'llm' or "
            "'auto'\n");
  EXPECT_EQ(reject("optimize engine(skills, llm)"),
            "col 23: error: expected ')' in 'engine' clause, found ','\n");
  EXPECT_EQ(reject("optimize tol(rtl = 1)"),
            "col 14: error: unknown tolerance 'rtl' in 'tol' clause; did you mean 'rtol'?\n");
  EXPECT_EQ(reject("optimize skills(+)"),
            "col 18: error: expected a skill id in 'skills' clause, found ')'\n");
}

TEST(ClauseParserDiagnostics, ErrorsInOneClauseDoNotHideTheNext) {
  EXPECT_EQ(reject("optimize launch(grid: ; block: 1) engine(lm) noalias"),
            "col 23: error: expected an expression, found ';'\n"
            "col 42: error: unknown engine 'lm' in 'engine' clause; expected 'skills', 'llm' or "
            "'auto'\n");
}

TEST(ClauseParserDiagnostics, Expressions) {
  EXPECT_EQ(reject("optimize args(n = (1 + 2)"),
            "col 26: error: expected ',' or ')' in 'args' clause, found end of line\n");
  EXPECT_EQ(reject("optimize args(n = (1 + 2 3)"), "col 26: error: expected ')', found '3'\n"
                                                   "col 19: note: to match this '('\n");
  EXPECT_EQ(reject("optimize args(n = 1 +)"), "col 22: error: expected an expression, found ')'\n");
  EXPECT_EQ(reject("optimize args(n = 12abc)"), "col 19: error: invalid number '12abc'\n");
  EXPECT_EQ(reject("optimize args(n = 99999999999999999999)"),
            "col 19: error: number '99999999999999999999' is too large\n");
  EXPECT_EQ(reject("optimize launch(grid: n / 2.5; block: 1)"),
            "col 27: error: expected an integer for a launch dimension; '2.5' is a floating-point "
            "number\n");
  EXPECT_EQ(reject("optimize buffers(x[1.0])"),
            "col 20: error: expected an integer for a buffer size; '1.0' is a floating-point "
            "number\n");
  EXPECT_EQ(reject("optimize budget(evals = n)"),
            "col 25: error: expected a constant for 'evals'; 'n' names a kernel parameter\n");
  EXPECT_EQ(reject("optimize budget(evals = 10 / 0)"),
            "col 25: error: cannot evaluate '10 / 0': division by zero\n");
  EXPECT_EQ(reject("optimize args(n = == 2)"),
            "col 19: error: expected an expression, found '=='\n");
  EXPECT_EQ(reject("optimize args(n = 'unterminated, m = 1, k = 2)"),
            "col 19: error: expected an expression, found 'unterminated, m = 1...\n");
  EXPECT_EQ(reject("optimize args(n = 'c')"), "col 19: error: expected an expression, found 'c'\n");
  EXPECT_EQ(reject("optimize args(n = \"s\")"),
            "col 19: error: expected an expression, found '\"s\"'\n");
}

TEST(ClauseParserDiagnostics, ValuesOutOfRange) {
  EXPECT_EQ(reject("optimize tol(rtol = -1e-3)"),
            "col 21: error: 'rtol' must be non-negative, not -1e-3\n");
  EXPECT_EQ(reject("optimize budget(evals = 0)"),
            "col 25: error: 'evals' must be positive, not 0\n");
  EXPECT_EQ(reject("optimize budget(time = 0s)"),
            "col 24: error: 'time' must be positive, not 0s\n");
  EXPECT_EQ(reject("optimize budget(time = 60)"),
            "col 24: error: expected a time unit (ms, s, m or h) after '60'\n");
  EXPECT_EQ(reject("optimize budget(time = 2d)"),
            "col 24: error: unknown time unit 'd' in '2d'; expected ms, s, m or h\n");
  EXPECT_EQ(reject("optimize budget(time = 1e999s)"),
            "col 24: error: number '1e999s' is too large\n");
  EXPECT_EQ(reject("optimize budget(time = 1x5s)"), "col 24: error: unknown time unit 'x5s' in "
                                                    "'1x5s'; expected ms, s, m or h\n");
  EXPECT_EQ(reject("optimize budget(time = soon)"),
            "col 24: error: expected a duration such as 60s after 'time =', found 'soon'\n");
}

TEST(ClauseParserDiagnostics, MessagesHaveNoUnfilledArguments) {
  for (llvm::StringRef Text :
       {"optimize launch(", "optimize args(", "optimize buffers(x", "optimize tol(rtol",
        "optimize budget(time =", "optimize skills(-", "optimize engine(", "optimize ("}) {
    PragmaParseResult R = parsePragmaText(Text);
    EXPECT_FALSE(R.Clauses) << Text.str();
    ASSERT_FALSE(R.Diagnostics.empty()) << Text.str();
    for (const PragmaDiagnostic &D : R.Diagnostics)
      EXPECT_EQ(messageOf(D).find('%'), std::string::npos) << messageOf(D);
  }
}
