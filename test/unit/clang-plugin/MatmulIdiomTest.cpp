// MatmulIdiom: what the front end's features say of a product beforehand
// (fitsMatmul), and what the AST says (findMatmulIdiom): the k loop, its
// operands and the dimension each follows, on small kernels.
#include "clang-plugin/transforms/matmul/MatmulIdiom.h"
#include "test/unit/common/SnippetAst.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <gtest/gtest.h>

using namespace kopt;
using namespace kopt::transform;

namespace {

const char *const Product = R"(
__global__ void matmul(int n, const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0;
    for (int k = 0; k < n; ++k)
      acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}
)";

TEST(MatmulIdiom, FeaturesFitAGuardedProduct) {
  EXPECT_TRUE(static_cast<bool>(fitsMatmul(snippets::snippetKernel(Product))));
}

TEST(MatmulIdiom, FeaturesSayWhyNot) {
  const char *Unguarded = R"(
__global__ void matmul(int n, const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
)";
  EXPECT_EQ(fitsMatmul(snippets::snippetKernel(Unguarded)).whyNot(),
            "the kernel has no bounds check on its position");
  const char *NoLoop = R"(
__global__ void add(int n, const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n)
    C[row * n + col] = A[row * n + col] + B[row * n + col];
}
)";
  EXPECT_NE(fitsMatmul(snippets::snippetKernel(NoLoop)).whyNot().find("no counted loop"),
            std::string::npos);
  const char *OneD = R"(
__global__ void dot(int n, const float *A, const float *B, float *C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    C[i] = A[i] * B[i];
}
)";
  EXPECT_FALSE(static_cast<bool>(fitsMatmul(snippets::snippetKernel(OneD))));
}

TEST(MatmulIdiom, FindsTheLoopAndItsOperands) {
  snippets::withUnitAst(Product, [](UnitAST &U, const frontend::KernelSummary &) {
    llvm::Expected<MatmulIdiom> M = findMatmulIdiom(U);
    ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
    EXPECT_EQ(M->K.Var->getName(), "k");
    ASSERT_EQ(M->Operands.size(), 2u);
    EXPECT_EQ(M->Operands[0].Dim, 'y');
    EXPECT_EQ(M->Operands[1].Dim, 'x');
    EXPECT_EQ(M->BoundsDim, 0);
    EXPECT_TRUE(M->PlainProduct);
    // A[row * n + k] walks k in unit steps, B[k * n + col] does not.
    EXPECT_TRUE(unitStrideInK(*M->Operands[0].Access, M->K.Var));
    EXPECT_FALSE(unitStrideInK(*M->Operands[1].Access, M->K.Var));
  });
}

TEST(MatmulIdiom, ScaledOperandsAndTriangularBounds) {
  const char *Code = R"(
__global__ void syrk(int n, float alpha, const float *A, float *C) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) {
    float acc = 0;
    for (int k = i + 1; k < n; ++k)
      acc += alpha * A[i * n + k] * A[j * n + k];
    C[i * n + j] = acc;
  }
}
)";
  snippets::withUnitAst(Code, [](UnitAST &U, const frontend::KernelSummary &) {
    llvm::Expected<MatmulIdiom> M = findMatmulIdiom(U);
    ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
    EXPECT_EQ(M->BoundsDim, 'y');
    ASSERT_EQ(M->Operands.size(), 2u);
    // The row operand keeps the factor the loop does not change.
    EXPECT_NE(M->Operands[0].Value, M->Operands[0].Access);
    EXPECT_EQ(M->Operands[1].Value->IgnoreParenImpCasts(), M->Operands[1].Access);
  });
}

// Positions read through variables: the accumulator may start from the output
// (acc = C[row * n + col]) and be updated as acc = acc + ..., the counter of a
// triangular loop starts at the row; neither is a position outside the operands.
TEST(MatmulIdiom, AccumulatorsAndCountersMayFollowThePosition) {
  const char *Code = R"(
__global__ void update(int n, const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = C[row * n + col];
    for (int k = row; k < n; ++k)
      acc = acc + A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}
)";
  snippets::withUnitAst(Code, [](UnitAST &U, const frontend::KernelSummary &) {
    llvm::Expected<MatmulIdiom> M = findMatmulIdiom(U);
    ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
    EXPECT_EQ(M->BoundsDim, 'y');
    EXPECT_TRUE(M->PlainProduct);
  });
}

TEST(MatmulIdiom, SaysWhyTheLoopIsNoProduct) {
  const char *PositionOutside = R"(
__global__ void skewed(int n, const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0;
    for (int k = 0; k < n; ++k)
      acc += A[row * n + k] * B[k * n + col] + col;
    C[row * n + col] = acc;
  }
}
)";
  snippets::withUnitAst(PositionOutside, [](UnitAST &U, const frontend::KernelSummary &) {
    EXPECT_EQ(snippets::messageOf(findMatmulIdiom(U).takeError()),
              "line 14:5: no matmul loop: the loop body reads the thread's position outside its "
              "operands");
  });
  const char *NoLoop = R"(
__global__ void add(int n, const float *A, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n)
    C[row * n + col] = A[row * n + col];
}
)";
  snippets::withUnitAst(NoLoop, [](UnitAST &U, const frontend::KernelSummary &) {
    EXPECT_NE(
        snippets::messageOf(findMatmulIdiom(U).takeError()).find("the kernel has no for loop"),
        std::string::npos);
  });
}

} // namespace
