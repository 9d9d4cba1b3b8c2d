// StencilIdiom: the features' first look (fitsStencil) and the AST's (the
// tiles findStencilIdiom stages, the reads they serve), with the checks that
// keep staging exact: no update in place, bounded accesses, no aliasing.
#include "clang-plugin/transforms/stencil/StencilIdiom.h"
#include "test/unit/common/SnippetAst.h"

#include <clang/AST/Decl.h>

#include <gtest/gtest.h>

using namespace kopt;
using namespace kopt::transform;
using snippets::messageOf;

namespace {

const char *const Jacobi = R"(
__global__ void jacobi(int n, const float *in, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    out[i * n + j] = 0.2f * (in[i * n + j] + in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                             in[i * n + j - 1] + in[i * n + j + 1]);
}
)";

// Runs Check on the idiom findStencilIdiom finds in Code, or on its error.
void withIdiom(const std::string &Code,
               llvm::function_ref<void(UnitAST &, frontend::IndexPolyBuilder &,
                                       llvm::Expected<StencilIdiom> &)>
                   Check) {
  snippets::withUnitAst(Code, [&](UnitAST &U, const frontend::KernelSummary &) {
    frontend::IndexPolyBuilder B(U.Ctx, U.Kernel);
    llvm::Expected<StencilIdiom> S = findStencilIdiom(U, B);
    Check(U, B, S);
    if (!S)
      llvm::consumeError(S.takeError());
  });
}

TEST(StencilIdiom, FeaturesFitATwoDimensionalNeighbourhood) {
  EXPECT_TRUE(static_cast<bool>(fitsStencil(snippets::snippetKernel(Jacobi), /*Need3D=*/false)));
  EXPECT_FALSE(static_cast<bool>(fitsStencil(snippets::snippetKernel(Jacobi), /*Need3D=*/true)));
  const char *Pointwise = R"(
__global__ void scale(int n, const float *in, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n)
    out[i * n + j] = 2 * in[i * n + j];
}
)";
  EXPECT_EQ(fitsStencil(snippets::snippetKernel(Pointwise), false).whyNot(),
            "no input is read at two or more offsets of the thread's position");
}

TEST(StencilIdiom, OneTileAroundTheFivePoints) {
  withIdiom(Jacobi, [](UnitAST &, frontend::IndexPolyBuilder &, llvm::Expected<StencilIdiom> &S) {
    ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
    EXPECT_EQ(S->Dims, 3u);
    ASSERT_EQ(S->Groups.size(), 1u);
    const TileGroup &G = S->Groups.front();
    EXPECT_EQ(G.Array->getName(), "in");
    EXPECT_EQ(G.Element, "float");
    EXPECT_EQ(G.ElementBytes, 4);
    EXPECT_EQ(G.Fast, 'x');
    EXPECT_EQ(G.Lo, (Offset{-1, -1, 0}));
    EXPECT_EQ(G.Hi, (Offset{1, 1, 0}));
    EXPECT_EQ(S->Reads.size(), 5u);
    EXPECT_TRUE(S->Loops.empty());
  });
}

TEST(StencilIdiom, LiteralLoopsAreEnumerated) {
  const char *Box = R"(
__global__ void box(int n, const float *in, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 2 && i < n - 2 && j >= 2 && j < n - 2) {
    float s = 0;
    for (int di = -2; di <= 2; ++di)
      for (int dj = -2; dj <= 2; ++dj)
        s += in[(i + di) * n + j + dj];
    out[i * n + j] = s;
  }
}
)";
  withIdiom(Box, [](UnitAST &, frontend::IndexPolyBuilder &, llvm::Expected<StencilIdiom> &S) {
    ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
    ASSERT_EQ(S->Groups.size(), 1u);
    EXPECT_EQ(S->Groups.front().Lo, (Offset{-2, -2, 0}));
    EXPECT_EQ(S->Groups.front().Hi, (Offset{2, 2, 0}));
    ASSERT_EQ(S->Loops.size(), 2u);
    for (const auto &[Var, Range] : S->Loops) {
      EXPECT_EQ(Range.Lo, -2);
      EXPECT_EQ(Range.Hi, 2);
    }
  });
}

TEST(StencilIdiom, AnUpdateInPlaceIsRefused) {
  const char *GaussSeidel = R"(
__global__ void sweep(int n, float *a) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    a[i * n + j] = 0.25f * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                            a[i * n + j + 1]);
}
)";
  snippets::withUnitAst(GaussSeidel, [](UnitAST &U, const frontend::KernelSummary &) {
    frontend::IndexPolyBuilder B(U.Ctx, U.Kernel);
    std::string Why = messageOf(checkInPlaceUpdates(U, B));
    EXPECT_NE(Why.find("'a' is read here at another element than it is written at line 13"),
              std::string::npos)
        << Why;
  });
  snippets::withUnitAst(Jacobi, [](UnitAST &U, const frontend::KernelSummary &) {
    frontend::IndexPolyBuilder B(U.Ctx, U.Kernel);
    EXPECT_EQ(messageOf(checkInPlaceUpdates(U, B)), "");
  });
}

TEST(StencilIdiom, EveryAccessNeedsABoundOnEachPosition) {
  const char *RowsOnly = R"(
__global__ void rows(int n, const float *in, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1)
    out[i * n + j] = in[(i - 1) * n + j] + in[(i + 1) * n + j];
}
)";
  snippets::withUnitAst(RowsOnly, [](UnitAST &U, const frontend::KernelSummary &) {
    frontend::IndexPolyBuilder B(U.Ctx, U.Kernel);
    std::string Why = messageOf(checkBoundedAccesses(U, B, 3));
    EXPECT_NE(Why.find("without a bound on the thread's x position"), std::string::npos) << Why;
    EXPECT_EQ(messageOf(checkBoundedAccesses(U, B, 2)), ""); // y alone is bounded.
  });
}

TEST(StencilIdiom, TilesMustNotAliasWhatTheKernelWrites) {
  withIdiom(Jacobi, [](UnitAST &U, frontend::IndexPolyBuilder &, llvm::Expected<StencilIdiom> &S) {
    ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
    std::string Why = messageOf(checkTilesDoNotAlias(U, *S, /*NoAlias=*/false));
    EXPECT_NE(Why.find("'in' may alias 'out'"), std::string::npos) << Why;
    EXPECT_EQ(messageOf(checkTilesDoNotAlias(U, *S, /*NoAlias=*/true)), "");
  });
}

TEST(StencilIdiom, OneDimensionalKernelsAreNotStencils) {
  const char *OneD = R"(
__global__ void smooth(int n, const float *in, float *out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= 1 && j < n - 1)
    out[j] = in[j - 1] + in[j + 1];
}
)";
  withIdiom(OneD, [](UnitAST &, frontend::IndexPolyBuilder &, llvm::Expected<StencilIdiom> &S) {
    ASSERT_FALSE(static_cast<bool>(S));
    std::string Why = llvm::toString(S.takeError());
    EXPECT_NE(Why.find("not a 2-D or 3-D kernel"), std::string::npos) << Why;
  });
}

} // namespace
