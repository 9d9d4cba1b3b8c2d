// Expressions of '#pragma kopt optimize' clauses: literals, precedence, evaluation.
#include "clang-plugin/model/ClauseConstants.h"
#include "clang-plugin/pragma/ClauseParser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace kopt::frontend;

namespace {

// The expression E, parsed as the value of args(v = E).
ClauseExpr parseValue(llvm::StringRef E) {
  PragmaParseResult R = parsePragmaText(("optimize args(v = " + E + ")").str());
  EXPECT_TRUE(R.Clauses) << E.str() << "\n" << renderDiagnostics(R.Diagnostics, lexPragmaText(E));
  if (!R.Clauses)
    return {};
  return R.Clauses->Args->front().Value;
}

std::string printed(llvm::StringRef E) {
  ClauseExpr X = parseValue(E);
  return X.Root ? printExpr(*X.Root) : "<none>";
}

int64_t valueOf(llvm::StringRef E, const IntBindings &Names = {}) {
  llvm::Expected<int64_t> V = evaluate(parseValue(E), Names);
  if (!V) {
    ADD_FAILURE() << E.str() << ": " << llvm::toString(V.takeError());
    return 0;
  }
  return *V;
}

std::string errorOf(llvm::StringRef E, const IntBindings &Names = {}) {
  llvm::Expected<int64_t> V = evaluate(parseValue(E), Names);
  if (V)
    return "value " + std::to_string(*V);
  return llvm::toString(V.takeError());
}

} // namespace

TEST(ClauseExpr, PrecedenceAndAssociativityFollowC) {
  EXPECT_EQ(printed("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(printed("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(printed("8 - 4 - 2"), "((8 - 4) - 2)");
  EXPECT_EQ(printed("1 << 2 + 3"), "(1 << (2 + 3))");
  EXPECT_EQ(printed("n / 256 % 4"), "((n / 256) % 4)");
  EXPECT_EQ(printed("-n * 2"), "((-n) * 2)");
  EXPECT_EQ(printed("- -+3"), "(-(-3))");
}

TEST(ClauseExpr, TextIsTheSourceWithItsSpacing) {
  EXPECT_EQ(parseValue("(n + 255)/256").Text, "(n + 255)/256");
  EXPECT_EQ(parseValue("1<<20").Text, "1<<20");
}

TEST(ClauseExpr, EvaluatesIntegerArithmetic) {
  EXPECT_EQ(valueOf("1 << 20"), 1 << 20);
  EXPECT_EQ(valueOf("(n + 255) / 256", {{"n", 1000}}), 4);
  EXPECT_EQ(valueOf("-7 / 2"), -3); // Truncates, as in C.
  EXPECT_EQ(valueOf("-7 % 2"), -1);
  EXPECT_EQ(valueOf("256 >> 4"), 16);
  EXPECT_EQ(valueOf("0x10 + 010 + 0b10 + 1'000"), 16 + 8 + 2 + 1000);
  EXPECT_EQ(valueOf("4096u * 2ull"), 8192);
  EXPECT_EQ(valueOf("9223372036854775807"), std::numeric_limits<int64_t>::max());
}

TEST(ClauseExpr, EvaluationErrorsSayWhy) {
  EXPECT_EQ(errorOf("n / 0", {{"n", 1}}), "cannot evaluate 'n / 0': division by zero");
  EXPECT_EQ(errorOf("n % (m - m)", {{"n", 1}, {"m", 2}}),
            "cannot evaluate 'n % (m - m)': division by zero");
  EXPECT_EQ(errorOf("m * 2"), "cannot evaluate 'm * 2': no value for 'm'");
  EXPECT_EQ(errorOf("1.5 * 2"), "cannot evaluate '1.5 * 2': not an integer expression");
  EXPECT_EQ(errorOf("9223372036854775807 + 1"),
            "cannot evaluate '9223372036854775807 + 1': integer overflow in '+'");
  EXPECT_EQ(errorOf("1 << 64"), "cannot evaluate '1 << 64': shift by 64 is out of range (0 to 63)");
  EXPECT_EQ(errorOf("1 << -1"), "cannot evaluate '1 << -1': shift by -1 is out of range (0 to 63)");
  EXPECT_EQ(errorOf("-1 << 2"), "cannot evaluate '-1 << 2': left shift of a negative value");
  EXPECT_EQ(errorOf("1 << 63"), "cannot evaluate '1 << 63': integer overflow in '<<'");
  EXPECT_EQ(errorOf("(-9223372036854775807 - 1) / -1"),
            "cannot evaluate '(-9223372036854775807 - 1) / -1': integer overflow in '/'");
  EXPECT_EQ(errorOf("-(-9223372036854775807 - 1)"),
            "cannot evaluate '-(-9223372036854775807 - 1)': integer overflow in '-'");
}

TEST(ClauseExpr, NumbersMixLikeC) {
  auto Number = [](llvm::StringRef E, const NumberBindings &Names = {}) {
    llvm::Expected<ClauseNumber> V = evaluateNumber(parseValue(E), Names);
    EXPECT_TRUE(bool(V)) << (V ? "" : llvm::toString(V.takeError()));
    return V ? *V : ClauseNumber(int64_t(-1));
  };
  EXPECT_EQ(Number("1 / 2"), ClauseNumber(int64_t(0)));
  EXPECT_EQ(Number("1.0 / 2"), ClauseNumber(0.5));
  EXPECT_EQ(Number("a * 2", {{"a", 1.25}}), ClauseNumber(2.5));
  EXPECT_EQ(Number("2.0f - 1e-1"), ClauseNumber(2.0 - 0.1));
  llvm::Expected<ClauseNumber> Bad = evaluateNumber(parseValue("1.5 % 2"), {});
  ASSERT_FALSE(Bad);
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "cannot evaluate '1.5 % 2': operands of '%' must be integers");
}

TEST(ClauseExpr, NumberLiterals) {
  auto Int = [](llvm::StringRef S) {
    llvm::Expected<ClauseNumber> V = parseNumberLiteral(S);
    if (!V) {
      llvm::consumeError(V.takeError());
      return int64_t(-1);
    }
    return std::holds_alternative<int64_t>(*V) ? std::get<int64_t>(*V) : int64_t(-2);
  };
  EXPECT_EQ(Int("0"), 0);
  EXPECT_EQ(Int("0x7fffFFFF"), 0x7fffffff);
  EXPECT_EQ(Int("0B101"), 5);
  EXPECT_EQ(Int("0777"), 0777);
  EXPECT_EQ(Int("1'024'000"), 1024000);
  EXPECT_EQ(Int("12UL"), 12);
  EXPECT_EQ(Int("0x1'f"), 0x1f);
  EXPECT_EQ(Int("0'7"), 07);
  EXPECT_EQ(Int("1.0"), -2); // Floating.
  for (llvm::StringRef Bad : {"08", "0x", "0b2", "12abc", "1..2", "1e", "60s", "0xg", "",
                              // Separators only between digits, as clang reads them.
                              "1'e-5", "1'.5", "1''0", "0x'1", "0b'1", "1'u", "1'"}) {
    llvm::Expected<ClauseNumber> V = parseNumberLiteral(Bad);
    ASSERT_FALSE(bool(V)) << Bad.str();
    EXPECT_EQ(llvm::errorToErrorCode(V.takeError()), std::errc::invalid_argument) << Bad.str();
  }
  for (llvm::StringRef Large : {"9223372036854775808", "0xFFFFFFFFFFFFFFFFF", "1e400"}) {
    llvm::Expected<ClauseNumber> V = parseNumberLiteral(Large);
    ASSERT_FALSE(bool(V)) << Large.str();
    EXPECT_EQ(llvm::errorToErrorCode(V.takeError()), std::errc::result_out_of_range);
  }
  llvm::Expected<ClauseNumber> Hex = parseNumberLiteral("0x1p-2");
  ASSERT_TRUE(bool(Hex));
  EXPECT_EQ(*Hex, ClauseNumber(0.25));
}

TEST(ClauseExpr, NamesAndFloatsAreFound) {
  ClauseExpr E = parseValue("(n + m) * 2.5 - n");
  std::vector<const ExprNode *> Names;
  collectNames(*E.Root, Names);
  ASSERT_EQ(Names.size(), 3u);
  EXPECT_EQ(Names[0]->Spelling, "n");
  EXPECT_EQ(Names[1]->Spelling, "m");
  const ExprNode *Cause = nullptr;
  auto IntegerNames = [](const ExprNode &) { return NumKind::Integer; };
  EXPECT_EQ(staticKind(*E.Root, IntegerNames, &Cause), NumKind::Double);
  ASSERT_NE(Cause, nullptr);
  EXPECT_EQ(Cause->Spelling, "2.5");
  EXPECT_EQ(staticKind(*parseValue("(float)n / 2").Root, IntegerNames), NumKind::Float);
  EXPECT_EQ(staticKind(*parseValue("(int)ceil(n / 2.0)").Root, IntegerNames), NumKind::Integer);
}

TEST(ClauseExpr, DeepNestingAndLongChainsAreErrorsNotStackOverflows) {
  std::string Parens = std::string(300, '(') + "1" + std::string(300, ')');
  PragmaParseResult R = parsePragmaText("optimize args(v = " + Parens + ")");
  EXPECT_FALSE(R.Clauses);
  ASSERT_FALSE(R.Diagnostics.empty());
  EXPECT_EQ(R.Diagnostics[0].Kind, PragmaDiagKind::ExpressionTooDeep);

  // A flat sum is a chain, not nesting: 300 terms parse; 5000 are too long
  // (past MaxExprNodes), which also bounds the chain's depth.
  std::string Sum = "1";
  for (int I = 0; I < 300; ++I)
    Sum += "+1";
  R = parsePragmaText("optimize args(v = " + Sum + ")");
  ASSERT_TRUE(R.Clauses);
  EXPECT_EQ(llvm::cantFail(evaluateNumber(R.Clauses->Args->front().Value, {})),
            ClauseNumber(int64_t(301)));
  for (int I = 300; I < 5000; ++I)
    Sum += "+1";
  R = parsePragmaText("optimize args(v = " + Sum + ")");
  EXPECT_FALSE(R.Clauses);
  ASSERT_FALSE(R.Diagnostics.empty());
  EXPECT_EQ(R.Diagnostics[0].Kind, PragmaDiagKind::ExpressionTooLong);
  // At the operator that makes node MaxExprNodes + 1: the 512th '+', token 6 + 2 * 511.
  EXPECT_EQ(R.Diagnostics[0].Token, MaxExprNodes + 4);

  std::string Negations = std::string(1000, '-') + "1";
  R = parsePragmaText("optimize args(v = " + Negations + ")");
  EXPECT_FALSE(R.Clauses);
}

// Launches copied from host code: casts, ceil/floor/min/max, sizeof (16.4).
TEST(ClauseExpr, CastsAndFunctionsAsHostCodeWritesThem) {
  auto Number = [](llvm::StringRef E, const NumberBindings &Names = {}) {
    llvm::Expected<ClauseNumber> V = evaluateNumber(parseValue(E), Names);
    EXPECT_TRUE(bool(V)) << E.str() << ": " << (V ? "" : llvm::toString(V.takeError()));
    return V ? *V : ClauseNumber(int64_t(-1));
  };
  // atax.cu's grid: (size_t)(ceil(((float)NX) / ((float)DIM_THREAD_BLOCK_X))).
  EXPECT_EQ(Number("(size_t)(ceil(((float)8192) / ((float)256)))"), ClauseNumber(int64_t(32)));
  EXPECT_EQ(Number("(size_t)(ceil(((float)8000) / ((float)256)))"), ClauseNumber(int64_t(32)));
  EXPECT_EQ(Number("(int)ceil(n / 256.0)", {{"n", int64_t(257)}}), ClauseNumber(int64_t(2)));
  EXPECT_EQ(Number("(unsigned)floor(2.9)"), ClauseNumber(int64_t(2)));
  EXPECT_EQ(Number("(int)-2.9"), ClauseNumber(int64_t(-2))); // Truncates toward zero.
  EXPECT_EQ(Number("(float)1 / 4"), ClauseNumber(0.25));
  EXPECT_EQ(Number("std::min(n, 64) * max(2, 3)", {{"n", int64_t(100)}}),
            ClauseNumber(int64_t(192)));
  EXPECT_EQ(Number("sizeof(float) * 256 + sizeof(float4)"), ClauseNumber(int64_t(1024 + 16)));
  EXPECT_EQ(Number("(unsigned long long)1 << 40"), ClauseNumber(int64_t(1) << 40));
  // A template parameter is a name like the kernel's scalars.
  EXPECT_EQ(Number("(n + BLOCK - 1) / BLOCK", {{"n", int64_t(1000)}, {"BLOCK", int64_t(128)}}),
            ClauseNumber(int64_t(8)));
}

// Sizes host code computes with <cmath> (issue 35): each function in the type
// C++ gives it, float arithmetic for the f spellings and float arguments.
TEST(ClauseExpr, MathCallsOfCmathAsHostCodeWritesThem) {
  auto Number = [](llvm::StringRef E, const NumberBindings &Names = {}) {
    llvm::Expected<ClauseNumber> V = evaluateNumber(parseValue(E), Names);
    EXPECT_TRUE(bool(V)) << E.str() << ": " << (V ? "" : llvm::toString(V.takeError()));
    return V ? *V : ClauseNumber(int64_t(-1));
  };
  // romberg: levels = (int)(logf((float)NPOINTS) / logf(2.0f) + 0.5f).
  EXPECT_EQ(Number("(int)(logf((float)4096) / logf(2.0f) + 0.5f)"), ClauseNumber(int64_t(12)));
  EXPECT_EQ(Number("(int)std::sqrt((double)65536)"), ClauseNumber(int64_t(256)));
  EXPECT_EQ(Number("(int)::sqrtf(n)", {{"n", int64_t(1024)}}), ClauseNumber(int64_t(32)));
  EXPECT_EQ(Number("(int)pow(2, 10)"), ClauseNumber(int64_t(1024)));
  EXPECT_EQ(Number("(int)powf(2.0f, 3)"), ClauseNumber(int64_t(8)));
  EXPECT_EQ(Number("(int)exp(0)"), ClauseNumber(int64_t(1)));
  EXPECT_EQ(Number("(int)log2(1 << 20)"), ClauseNumber(int64_t(20)));
  EXPECT_EQ(Number("(int)log10(1000.0)"), ClauseNumber(int64_t(3)));
  EXPECT_EQ(Number("(int)floorf(std::log(100.0f))"), ClauseNumber(int64_t(4)));
  // In float where C++ computes in float: logf(3) rounds as a float does.
  EXPECT_EQ(Number("logf(3)"), ClauseNumber(double(std::log(3.0f))));
  EXPECT_EQ(Number("std::log(3.0f)"), ClauseNumber(double(std::log(3.0f))));
  EXPECT_EQ(Number("log(3)"), ClauseNumber(std::log(3.0)));
  EXPECT_EQ(Number("pow(1.1f, 2)"), ClauseNumber(std::pow(double(1.1f), 2.0)));
  EXPECT_EQ(Number("pow(1.1f, 2.0f)"), ClauseNumber(double(std::pow(1.1f, 2.0f))));
  auto Kind = [](llvm::StringRef E) {
    return staticKind(*parseValue(E).Root, [](const ExprNode &) { return NumKind::Integer; });
  };
  EXPECT_EQ(Kind("logf(n)"), NumKind::Float);
  EXPECT_EQ(Kind("log(n)"), NumKind::Double);
  EXPECT_EQ(Kind("sqrt(2.0f)"), NumKind::Float);
  EXPECT_EQ(Kind("pow(2.0f, n)"), NumKind::Double);
  EXPECT_EQ(Kind("powf(n, n)"), NumKind::Float);
  EXPECT_EQ(Kind("(int)sqrt(n)"), NumKind::Integer);
}

// Enumerators as host code names them (issue 35): a qualified name is one
// name, which the front end replaces by the enumerator's value.
TEST(ClauseExpr, QualifiedNamesAreEnumeratorsReplacedByTheirValues) {
  EXPECT_EQ(printed("Activation::Gelu + 1"), "(Activation::Gelu + 1)");
  EXPECT_EQ(printed("::MODE_0 * ns::Inner::K"), "(::MODE_0 * ns::Inner::K)");
  auto Enumerator = [](llvm::StringRef Name) -> std::optional<int64_t> {
    if (Name == "Activation::Gelu")
      return 3;
    if (Name == "MODE_2")
      return 7;
    return std::nullopt;
  };
  ClauseExpr E = parseValue("Activation::Gelu * n + MODE_2");
  ClauseExpr Replaced = E;
  Replaced.Root = withConstants(E.Root, Enumerator);
  std::vector<const ExprNode *> Names;
  collectNames(*Replaced.Root, Names);
  ASSERT_EQ(Names.size(), 1u);
  EXPECT_EQ(Names[0]->Spelling, "n");
  EXPECT_EQ(printExpr(*Replaced.Root), "((3 * n) + 7)");
  llvm::Expected<int64_t> V = evaluate(Replaced, {{"n", 10}});
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_EQ(*V, 37);
  // Unreplaced, an enumerator is a name without a value.
  EXPECT_EQ(errorOf("Activation::Gelu"),
            "cannot evaluate 'Activation::Gelu': no value for 'Activation::Gelu'");
  // Without a constant, the tree is the same tree.
  EXPECT_EQ(withConstants(E.Root, [](llvm::StringRef) { return std::optional<int64_t>(); }),
            E.Root);
  // Every clause's expressions.
  PragmaParseResult R = parsePragmaText(
      "optimize launch(grid: n / BLK; block: BLK) args(n = 1 << 10, m = MODE_2 | MODE_2 + 1) "
      "buffers(x[n * MODE_2] in range(0, MODE_2))");
  ASSERT_TRUE(R.Clauses);
  replaceConstants(*R.Clauses, [](llvm::StringRef Name) -> std::optional<int64_t> {
    return Name == "MODE_2" || Name == "BLK" ? std::optional<int64_t>(Name == "BLK" ? 128 : 7)
                                             : std::nullopt;
  });
  auto Int = [](const ClauseExpr &X, const IntBindings &Bound) {
    llvm::Expected<int64_t> Value = evaluate(X, Bound);
    if (!Value) {
      ADD_FAILURE() << X.Text << ": " << llvm::toString(Value.takeError());
      return int64_t(-1);
    }
    return *Value;
  };
  EXPECT_EQ(Int(R.Clauses->Launch->Block[0], {}), 128);
  EXPECT_EQ(Int(R.Clauses->Launch->Grid[0], {{"n", 1024}}), 8);
  EXPECT_EQ(Int(R.Clauses->Args->at(1).MoreValues[0], {}), 8);
  EXPECT_EQ(Int(R.Clauses->Buffers->front().Size, {{"n", 2}}), 14);
  EXPECT_EQ(Int(R.Clauses->Buffers->front().Range->High, {}), 7);
}

TEST(ClauseExpr, MathCallsWithoutAFiniteValueFail) {
  EXPECT_EQ(errorOf("(int)log(0)"),
            "cannot evaluate '(int)log(0)': 'log' gives no finite value here");
  EXPECT_EQ(errorOf("(int)std::sqrt(-1.0)"),
            "cannot evaluate '(int)std::sqrt(-1.0)': 'std::sqrt' gives no finite value here");
  EXPECT_EQ(errorOf("(int)expf(100)"),
            "cannot evaluate '(int)expf(100)': 'expf' gives no finite value here");
}

TEST(ClauseExpr, CastsThatLoseTheValueFail) {
  EXPECT_EQ(errorOf("(int)3000000000"),
            "cannot evaluate '(int)3000000000': '(int)' of 3000000000 is out of the type's range");
  EXPECT_EQ(errorOf("(unsigned)-1"),
            "cannot evaluate '(unsigned)-1': '(unsigned)' of -1 is out of the type's range");
  EXPECT_EQ(errorOf("(int)(1.0 / 0)"), "cannot evaluate '(int)(1.0 / 0)': division by zero");
  EXPECT_EQ(errorOf("ceil(2.5)"), "cannot evaluate 'ceil(2.5)': not an integer expression");
}

// Round-up grids as host code writes them: gesummv's N / BLOCK + ((N % BLOCK) ? 1 : 0).
TEST(ClauseExpr, ConditionalsAndComparisonsFollowC) {
  EXPECT_EQ(printed("n / 256 + ((n % 256) ? 1 : 0)"), "((n / 256) + ((n % 256) ? 1 : 0))");
  EXPECT_EQ(printed("a < b == c > d"), "((a < b) == (c > d))");
  EXPECT_EQ(printed("a || b && !c"), "(a || (b && (!c)))");
  EXPECT_EQ(printed("a ? b : c ? d : e"), "(a ? b : (c ? d : e))");
  EXPECT_EQ(valueOf("n / 256 + ((n % 256) ? 1 : 0)", {{"n", 1000}}), 4);
  EXPECT_EQ(valueOf("n / 256 + ((n % 256) ? 1 : 0)", {{"n", 1024}}), 4);
  EXPECT_EQ(valueOf("n / 256 + (n % 256 != 0)", {{"n", 1025}}), 5);
  EXPECT_EQ(valueOf("(n >= 4096) ? 512 : 128", {{"n", 4096}}), 512);
  EXPECT_EQ(valueOf("(n >= 4096) ? 512 : 128", {{"n", 4095}}), 128);
  EXPECT_EQ(valueOf("1.5 < 2 && 2 <= 2 && !(3 == 4)"), 1);
  // Only the branch taken and the operands needed are evaluated, as in C.
  EXPECT_EQ(valueOf("n == 0 ? 1 : 1024 / n", {{"n", 0}}), 1);
  EXPECT_EQ(valueOf("n != 0 && 1024 / n > 2", {{"n", 0}}), 0);
  EXPECT_EQ(errorOf("n ? 1024 / n : 1024 / (n - n)", {{"n", 0}}),
            "cannot evaluate 'n ? 1024 / n : 1024 / (n - n)': division by zero");
}

TEST(ClauseExpr, AConditionalWithoutItsColonSaysWhatIsMissing) {
  PragmaParseResult R = parsePragmaText("optimize args(v = n ? 1)");
  ASSERT_FALSE(R.Clauses);
  std::string Text = renderDiagnostics(R.Diagnostics, lexPragmaText("optimize args(v = n ? 1)"));
  EXPECT_NE(Text.find("expected ':' after '? 1'"), std::string::npos) << Text;
}
