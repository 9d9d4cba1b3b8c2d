// LoopIndependence: whether the iterations of a kernel's loop may run at once,
// asked the way loop-to-grid asks it (the ranges around the loop, the
// counter's bounds, the accesses of its body), on small kernels.
#include "clang-plugin/transforms/parallel/LoopIndependence.h"
#include "clang-plugin/transforms/parallel/LoopWrites.h"
#include "test/unit/common/SnippetAst.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <gtest/gtest.h>

using namespace kopt;
using namespace kopt::transform;
using snippets::messageOf;

namespace {

// checkIndependent's answer for the kernel's first outer loop ("" where its
// iterations are independent), with nothing running beside the loop.
std::string independence(const std::string &Code, bool NoAlias) {
  std::string Answer = "not checked";
  snippets::withUnitAst(Code, [&](UnitAST &U, const frontend::KernelSummary &) {
    llvm::Expected<std::vector<const clang::Expr *>> Positions = xPositions(U);
    if (!Positions) {
      Answer = "positions: " + llvm::toString(Positions.takeError());
      return;
    }
    std::vector<const clang::ForStmt *> Loops = outerLoops(U);
    ASSERT_FALSE(Loops.empty());
    std::optional<LoopCounter> Counter = loopCounter(*Loops.front(), U);
    ASSERT_TRUE(Counter);
    AccessIndexer Indexer(U, *Positions);
    Ranges Known = Indexer.rangesAt(*Loops.front());
    if (std::optional<Linear> Lo = Indexer.linear(Counter->Init))
      Known.addLower(Counter->Var, *Lo);
    if (std::optional<Linear> Hi = Indexer.linear(Counter->Bound))
      Known.addUpper(Counter->Var, *Hi);
    Answer = messageOf(checkIndependent(
        U, Counter->Var, Indexer.accessesIn(Loops.front()->getBody()), {}, Known, NoAlias));
  });
  return Answer;
}

TEST(LoopIndependence, ColumnsOfOneThreadNeverMeet) {
  const char *Code = R"(
__global__ void copy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; ++j)
      y[j * n + i] = 2 * x[j * n + i];
}
)";
  EXPECT_EQ(independence(Code, /*NoAlias=*/true), "");
}

TEST(LoopIndependence, FlatIndexIsSplitIntoRowAndColumn) {
  // symm[j1 * m + j2] and its mirror symm[j2 * m + j1] meet only where
  // j2 == j1: within one iteration.
  const char *Code = R"(
__global__ void mirror(int m, const float *data, float *symm) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m)
    for (int j2 = j1; j2 < m; j2++) {
      float v = data[j1] * data[j2];
      symm[j1 * m + j2] = v;
      symm[j2 * m + j1] = v;
    }
}
)";
  EXPECT_EQ(independence(Code, /*NoAlias=*/true), "");
}

TEST(LoopIndependence, ReadingTheNeighbourOfAWriteIsACarriedDependence) {
  const char *Code = R"(
__global__ void scan(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 1; j < n; ++j)
      y[j * n + i] = y[(j - 1) * n + i] + 1;
}
)";
  EXPECT_NE(independence(Code, /*NoAlias=*/true)
                .find("iterations of the loop may reach the same element of 'y'"),
            std::string::npos);
}

TEST(LoopIndependence, BuffersMayAliasWithoutNoaliasOrRestrict) {
  const char *Code = R"(
__global__ void copy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; ++j)
      y[j * n + i] = x[j * n + i];
}
)";
  EXPECT_NE(independence(Code, /*NoAlias=*/false).find("'y' may alias 'x'"), std::string::npos);
  const char *Restricted = R"(
__global__ void copy(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; ++j)
      y[j * n + i] = x[j * n + i];
}
)";
  EXPECT_EQ(independence(Restricted, /*NoAlias=*/false), "");
}

TEST(LoopIndependence, DataDependentIndexIsRefusedWithItsPlace) {
  const char *Code = R"(
__global__ void scatter(int n, const int *to, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; ++j)
      y[to[j * n + i]] = 1;
}
)";
  std::string Answer = independence(Code, /*NoAlias=*/true);
  EXPECT_NE(Answer.find("an access to 'y' whose index is not affine"), std::string::npos);
  EXPECT_EQ(Answer.rfind("line 13:", 0), 0u) << Answer; // The line of y[...].
}

TEST(LoopIndependence, LaunchBoundsKeepTheBlockAsItIs) {
  // The snippets have no CUDA headers: the attribute that __launch_bounds__ names.
  const char *Code = R"(
__global__ void __attribute__((launch_bounds(256))) copy(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; ++j)
      y[j * n + i] = 0;
}
)";
  EXPECT_EQ(independence(Code, /*NoAlias=*/true), "positions: the kernel has __launch_bounds__");
}

TEST(LoopIndependence, PositionVariablesAreFound) {
  const char *Code = R"(
__global__ void shifted(int n, float *y) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (j1 < n)
    y[j1] = 0;
}
)";
  snippets::withUnitAst(Code, [](UnitAST &U, const frontend::KernelSummary &) {
    llvm::Expected<std::vector<const clang::Expr *>> Positions = xPositions(U);
    ASSERT_TRUE(static_cast<bool>(Positions)) << llvm::toString(Positions.takeError());
    EXPECT_EQ(Positions->size(), 1u);
    std::vector<AccessIndexer::PositionVar> Vars = AccessIndexer(U, *Positions).positionVars();
    ASSERT_EQ(Vars.size(), 1u);
    EXPECT_EQ(Vars.front().Var->getName(), "j1");
    EXPECT_NE(Vars.front().Added, nullptr);
  });
}

} // namespace
