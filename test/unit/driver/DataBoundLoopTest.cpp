// A kernel whose loop takes its bounds from an integer input read once (a count
// per row: `for (k = 0; k < cnt[r]; ++k)`) is not optimized where the pragma
// gives that input no range and no recording fills it: the workload's random
// trip counts would rank the variants, not the application's. With a range
// the search runs as usual. CSR row offsets (`for (j = rowptr[r]; j <
// rowptr[r + 1]; ++j)`) are generated as well-formed rows: optimized without one.
#include "driver/optimize/KernelOptimization.h"
#include "test/unit/agents/RuleEvaluator.h"
#include "test/unit/common/SnippetKernel.h"

#include <gtest/gtest.h>

namespace kopt {
namespace {

std::string csrKernel(const std::string &RowPtrClause) {
  return "#pragma kopt optimize launch(grid: 4096; block: 256) args(rows = 1048576) "
         "buffers(val[rows * 8] in, col[rows * 8] in, " +
         RowPtrClause +
         ", x[rows] in, y[rows] out) noalias\n"
         "__global__ void spmv(int rows, const float *val, const int *col, const int *rowptr,\n"
         "                     const float *x, float *y) {\n"
         "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (r < rows) {\n"
         "    float t = 0.0f;\n"
         "    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j)\n"
         "      t += val[j] * x[col[j]];\n"
         "    y[r] = t;\n"
         "  }\n"
         "}\n";
}

// A row-wise scale (no reduction: the snippets' prelude declares no shuffles).
std::string countKernel(const std::string &CntClause) {
  return "#pragma kopt optimize launch(grid: 4096; block: 256) args(rows = 1048576) "
         "buffers(val[rows * 8] in, " +
         CntClause +
         ", y[rows * 8] out) noalias\n"
         "__global__ void scale(int rows, const float *val, const int *cnt, float *y) {\n"
         "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (r < rows)\n"
         "    for (int k = 0; k < cnt[r]; ++k)\n"
         "      y[r * 8 + k] = 2.0f * val[r * 8 + k];\n"
         "}\n";
}

struct CsrRun {
  frontend::KernelSummary K;
  fakes::RuleEvaluator Eval;
  std::string Log;

  explicit CsrRun(const std::string &Code) : K(snippets::snippetKernel(Code)) {
    // Every variant would look faster, but those with __ldg, which the
    // snippets' prelude does not declare (their units would not parse).
    Eval.Rules = {{"__ldg", evaluator::Verdict::NotFaster, 1.0},
                  {"", evaluator::Verdict::Faster, 1.5}};
  }
  llvm::Expected<driver::KernelJobResult> optimize() {
    driver::KernelJob Job;
    Job.Kernel = &K;
    Job.File = "/t/k.cu";
    Job.ClangArgs = fuzz::snippetClangArgs();
    Job.BudgetSeconds = 600;
    Job.BudgetEvaluations = 4;
    llvm::raw_string_ostream OS(Log);
    return driver::optimizeForCache(Job, Eval, &OS);
  }
};

TEST(DataBoundLoop, RandomCountsLeaveTheOriginal) {
  CsrRun R(countKernel("cnt[rows] in"));
  auto Out = R.optimize();
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_FALSE(Out->Entry.Variant.has_value());
  EXPECT_TRUE(Out->Optimized.Trajectory.empty());
  EXPECT_EQ(R.Eval.Screens + R.Eval.Confirms + R.Eval.Evaluated.size(), 0u);
  EXPECT_NE(R.Log.find("not optimized: the loop at line"), std::string::npos) << R.Log;
  EXPECT_NE(R.Log.find("takes its bounds from 'cnt'"), std::string::npos) << R.Log;
  EXPECT_NE(R.Log.find("kopt record"), std::string::npos) << R.Log;
}

TEST(DataBoundLoop, RangedCountsAreOptimized) {
  CsrRun R(countKernel("cnt[rows] in range(0, 8)"));
  auto Out = R.optimize();
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_FALSE(Out->Optimized.Trajectory.empty());
  EXPECT_EQ(R.Log.find("not optimized"), std::string::npos) << R.Log;
}

TEST(DataBoundLoop, RowPointersWithoutARangeAreOptimized) {
  CsrRun R(csrKernel("rowptr[rows + 1] in"));
  auto Out = R.optimize();
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_FALSE(Out->Optimized.Trajectory.empty());
  EXPECT_TRUE(Out->Entry.Variant.has_value()) << R.Log;
  EXPECT_EQ(R.Log.find("not optimized"), std::string::npos) << R.Log;
}

TEST(DataBoundLoop, ARangedRowPointerIsOptimized) {
  CsrRun R(csrKernel("rowptr[rows + 1] in range(0, 9)"));
  auto Out = R.optimize();
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_FALSE(Out->Optimized.Trajectory.empty());
  EXPECT_TRUE(Out->Entry.Variant.has_value()) << R.Log;
  EXPECT_EQ(R.Log.find("not optimized"), std::string::npos) << R.Log;
}

} // namespace
} // namespace kopt
