// ThreadPosition: the one recogniser of blockIdx.c * blockDim.c + threadIdx.c,
// in each order of the sum and the product, and only where the three
// builtins are of one dimension.
#include "clang-plugin/analysis/ThreadPosition.h"
#include "test/unit/common/SnippetAst.h"

#include <clang/AST/Expr.h>

#include <gtest/gtest.h>

using namespace kopt;

namespace {

// The dimension of each top-level sum initializing a local of Code's kernel
// ('-' where it is no position sum), in source order.
std::string sumDims(const std::string &Code) {
  std::string Dims;
  snippets::withUnitAst(Code, [&](transform::UnitAST &U, const frontend::KernelSummary &) {
    for (const clang::DeclStmt *D : snippets::allUnder<clang::DeclStmt>(U.Kernel.getBody())) {
      const auto *V = llvm::cast<clang::VarDecl>(D->getSingleDecl());
      const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(V->getInit()->IgnoreParenImpCasts());
      std::optional<frontend::PositionParts> P = Add ? frontend::positionSum(*Add) : std::nullopt;
      Dims += P ? P->Dim : '-';
    }
  });
  return Dims;
}

TEST(ThreadPosition, EachOrderOfTheSumAndTheProduct) {
  EXPECT_EQ(sumDims(R"(
__global__ void k() {
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  int b = threadIdx.y + blockDim.y * blockIdx.y;
  int c = (blockDim.z * blockIdx.z) + threadIdx.z;
}
)"),
            "xyz");
}

TEST(ThreadPosition, OneDimensionAndOnlyTheThreeBuiltins) {
  EXPECT_EQ(sumDims(R"(
__global__ void k(int n) {
  int a = blockIdx.x * blockDim.y + threadIdx.x;
  int b = blockIdx.x * blockDim.x + threadIdx.y;
  int c = blockIdx.x * n + threadIdx.x;
  int d = blockIdx.x * blockDim.x - threadIdx.x;
  int e = blockIdx.x * gridDim.x + threadIdx.x;
}
)"),
            "-----");
}

TEST(ThreadPosition, PartsAsWrittenAndACallersBuiltinTest) {
  snippets::withUnitAst(R"(
__global__ void k() {
  int tx = threadIdx.x;
  int g = blockDim.x * blockIdx.x + tx;
}
)",
                        [](transform::UnitAST &U, const frontend::KernelSummary &) {
                          std::vector<const clang::BinaryOperator *> Adds =
                              snippets::allUnder<clang::BinaryOperator>(U.Kernel.getBody());
                          const clang::BinaryOperator *Add = nullptr;
                          for (const clang::BinaryOperator *B : Adds)
                            if (B->getOpcode() == clang::BO_Add)
                              Add = B;
                          ASSERT_NE(Add, nullptr);
                          EXPECT_FALSE(frontend::positionSum(*Add)); // tx is no builtin.
                          auto ThroughTx = [](const clang::Expr *E, llvm::StringRef Var, char Dim) {
                            if (const auto *V = transform::namedVariable(E); V && V->getInit())
                              E = V->getInit();
                            return frontend::isBuiltin(E, Var, Dim);
                          };
                          std::optional<frontend::PositionParts> P =
                              frontend::positionSum(*Add, ThroughTx);
                          ASSERT_TRUE(P);
                          EXPECT_EQ(P->Dim, 'x');
                          EXPECT_EQ(P->Builtins[0], Add->getRHS());
                          EXPECT_TRUE(frontend::isBuiltin(P->Builtins[1], "blockIdx", 'x'));
                          EXPECT_TRUE(frontend::isBuiltin(P->Builtins[2], "blockDim", 'x'));
                        });
}

} // namespace
