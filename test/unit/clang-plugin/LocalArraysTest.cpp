// LocalArrays: which per-thread arrays a kernel declares and whether any index
// is data (clang-plugin/analysis/LocalArrays.h), as the features and
// local-arrays-to-shared read them.
#include "clang-plugin/analysis/LocalArrays.h"
#include "test/unit/common/SnippetAst.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <gtest/gtest.h>

using namespace kopt;

namespace {

// "name:elements:bytes:data" for each local array of Code's kernel, in order.
std::string arraysOf(const std::string &Code) {
  std::string Out;
  for (const frontend::LocalArray &A : snippets::snippetKernel(Code).Features.LocalArrays)
    Out += (Out.empty() ? "" : " ") + A.Name + ":" + std::to_string(A.Elements) + ":" +
           std::to_string(A.Bytes) + ":" + (A.DataIndexed ? "data" : "static");
  return Out;
}

TEST(LocalArrays, DataIndicesAgainstUnrollableOnes) {
  EXPECT_EQ(arraysOf(R"(
__global__ void k(const int *in, float *out, int n) {
  int hist[16];
  float taps[4];
  double shift[3];
  for (int b = 0; b < 16; b++) hist[b] = 0;
  for (int k = 0; k < 4; k++) taps[k] = in[k];
  hist[in[threadIdx.x] & 15]++;
  for (int k = 2; k > 0; k--) shift[k] = shift[k - 1];
  shift[0] = taps[3] + taps[2 * 1];
  out[0] = hist[3] + taps[1] + shift[2];
}
)"),
            "hist:16:64:data taps:4:16:static shift:3:24:static");
}

TEST(LocalArrays, ACounterOfARunTimeBoundIsData) {
  EXPECT_EQ(arraysOf(R"(
__global__ void k(float *out, int m) {
  float best[8];
  for (int k = 0; k < m; k++) best[k] = 0.0f;
  int stack[4];
  int top = 0;
  stack[top++] = 1;
  out[0] = best[0] + stack[0];
}
)"),
            "best:8:32:data stack:4:16:data");
}

TEST(LocalArrays, OnlyPerThreadArraysOfOneDimensionAndArithmeticElements) {
  EXPECT_EQ(arraysOf(R"(
struct pair { float a, b; };
__global__ void k(const int *in, float *out) {
  __attribute__((shared)) float tile[32];
  static int table[4];
  float grid[2][2];
  pair pairs[2];
  unsigned char bytes[5];
  bytes[in[0]] = 1;
  out[0] = tile[in[1]] + table[in[2]] + grid[in[3]][0] + pairs[in[4]].a + bytes[0];
}
)"),
            "bytes:5:5:data");
}

TEST(LocalArrays, EachSubscriptAndTheFirstOtherUse) {
  snippets::withUnitAst(R"(
__device__ int first(const int *c) { return c[0]; }
__global__ void k(const int *in, int *out) {
  int counts[8] = {0};
  int copy[8];
  counts[in[0] & 7] += 1;
  copy[in[1] & 7] = counts[2];
  out[0] = first(counts) + copy[0];
}
)",
                        [](transform::UnitAST &U, const frontend::KernelSummary &) {
                          std::vector<frontend::LocalArrayUses> Arrays =
                              frontend::findLocalArrays(U.Kernel, U.Ctx);
                          ASSERT_EQ(Arrays.size(), 2u);
                          EXPECT_EQ(Arrays[0].Array->getName(), "counts");
                          EXPECT_EQ(Arrays[0].Subscripts.size(), 2u);
                          ASSERT_NE(Arrays[0].OtherUse, nullptr); // first(counts)
                          EXPECT_TRUE(llvm::isa<clang::CallExpr>(Arrays[0].OtherUse));
                          EXPECT_EQ(Arrays[1].Array->getName(), "copy");
                          EXPECT_EQ(Arrays[1].Subscripts.size(), 2u);
                          EXPECT_EQ(Arrays[1].OtherUse, nullptr);
                          EXPECT_TRUE(Arrays[1].DataIndexed);
                        });
}

} // namespace
