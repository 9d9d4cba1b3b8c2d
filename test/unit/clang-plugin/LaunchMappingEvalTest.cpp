// Launch mappings: evaluation for one launch, composition, and parsing their
// expressions from text.
#include "clang-plugin/units/LaunchMappingEval.h"
#include "clang-plugin/pragma/ClauseParser.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

LaunchMapping blockOf128() {
  LaunchMapping M;
  M.Grid[0] = "(grid_x * block_x + 127) / 128";
  M.Block[0] = "128";
  return M;
}

std::string errorOf(llvm::Expected<LaunchDims> D) {
  if (D)
    return "no error";
  return llvm::toString(D.takeError());
}

} // namespace

TEST(ParseExprText, ParsesAWholeExpressionOnly) {
  llvm::Expected<ClauseExpr> E = parseExprText("(grid_x * block_x + 127) / 128");
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  EXPECT_EQ(printExpr(*E->Root), "(((grid_x * block_x) + 127) / 128)");

  llvm::Expected<ClauseExpr> Trailing = parseExprText("n + 1 )");
  ASSERT_FALSE(bool(Trailing));
  EXPECT_EQ(llvm::toString(Trailing.takeError()),
            "in 'n + 1 )': col 7: error: expected the end after 'an expression', found ')'");
  llvm::Expected<ClauseExpr> Float = parseExprText("n * 1.5");
  ASSERT_FALSE(bool(Float));
  EXPECT_NE(llvm::toString(Float.takeError()).find("col 5"), std::string::npos);
}

TEST(LaunchMapping, IdentityKeepsTheLaunch) {
  LaunchDims In{{10, 2, 1}, {256, 1, 1}, 64};
  llvm::Expected<LaunchDims> Out = evaluateLaunchMapping(LaunchMapping{}, In, {});
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(*Out, In);
}

TEST(LaunchMapping, EvaluatesOverLaunchAndScalarArguments) {
  LaunchMapping M = blockOf128();
  M.Grid[1] = "(n + 3) / 4";
  M.SharedMem = "smem + block_x * 4";
  llvm::Expected<LaunchDims> Out =
      evaluateLaunchMapping(M, {{1000, 1, 1}, {256, 1, 1}, 0}, {{"n", 10}});
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Grid, (std::array<int64_t, 3>{2000, 3, 1}));
  EXPECT_EQ(Out->Block, (std::array<int64_t, 3>{128, 1, 1}));
  EXPECT_EQ(Out->SharedMem, 1024);
}

TEST(LaunchMapping, LaunchNamesHideParameters) {
  LaunchMapping M;
  M.Grid[0] = "grid_x";
  llvm::Expected<LaunchDims> Out =
      evaluateLaunchMapping(M, {{7, 1, 1}, {32, 1, 1}, 0}, {{"grid_x", 99}});
  ASSERT_TRUE(bool(Out));
  EXPECT_EQ(Out->Grid[0], 7);
}

TEST(LaunchMapping, RejectsBadExpressionsAndValues) {
  LaunchDims In{{4, 1, 1}, {64, 1, 1}, 0};
  LaunchMapping Unknown;
  Unknown.Block[0] = "threads";
  EXPECT_NE(errorOf(evaluateLaunchMapping(Unknown, In, {})).find("block_x"), std::string::npos);
  LaunchMapping Zero;
  Zero.Grid[0] = "grid_x / 8";
  EXPECT_EQ(errorOf(evaluateLaunchMapping(Zero, In, {})),
            "launch mapping, grid_x = grid_x / 8 gives 0, which is not a launch dimension (1 to "
            "2^32 - 1)");
  LaunchMapping Negative;
  Negative.SharedMem = "smem - 1";
  EXPECT_NE(errorOf(evaluateLaunchMapping(Negative, In, {})).find("shared memory"),
            std::string::npos);
  LaunchMapping Syntax;
  Syntax.Grid[2] = "(grid_z";
  EXPECT_NE(errorOf(evaluateLaunchMapping(Syntax, In, {})).find("grid_z"), std::string::npos);
  LaunchMapping DivZero;
  DivZero.Grid[0] = "grid_x / (smem)";
  EXPECT_NE(errorOf(evaluateLaunchMapping(DivZero, In, {})).find("division by zero"),
            std::string::npos);
}

TEST(LaunchMapping, ComposeSubstitutesTheFirstIntoTheSecond) {
  LaunchMapping Then;
  Then.Grid[0] = "(grid_x + 1) / 2";
  Then.Block[0] = "block_x * 2";
  Then.SharedMem = "smem + n";
  LaunchMapping C = composeLaunchMappings(blockOf128(), Then);
  EXPECT_EQ(C.Grid[0], "(((grid_x * block_x + 127) / 128) + 1) / 2");
  EXPECT_EQ(C.Block[0], "(128) * 2");
  EXPECT_EQ(C.Grid[1], "(grid_y)");
  EXPECT_EQ(C.SharedMem, "(smem) + n");

  // Composition evaluates as applying one mapping after the other.
  LaunchDims In{{1000, 2, 1}, {256, 1, 1}, 16};
  IntBindings Args{{"n", 8}};
  llvm::Expected<LaunchDims> Step = evaluateLaunchMapping(blockOf128(), In, Args);
  ASSERT_TRUE(bool(Step));
  llvm::Expected<LaunchDims> TwoSteps = evaluateLaunchMapping(Then, *Step, Args);
  llvm::Expected<LaunchDims> OneStep = evaluateLaunchMapping(C, In, Args);
  ASSERT_TRUE(TwoSteps && OneStep);
  EXPECT_EQ(*TwoSteps, *OneStep);
}
