// What kopt check accepts, kopt inspect builds a workload from (issue 32): the
// workload (driver/optimize/WorkloadFromKernel.h) evaluates the pragma's
// expressions as the checks do (clang-plugin/pragma/WorkloadCheck.h), with
// every args value and a template's arguments.
#include "driver/optimize/WorkloadFromKernel.h"
#include "test/unit/common/SnippetKernel.h"

#include <gtest/gtest.h>

namespace kopt {
namespace {

TEST(CheckInspectAgreement, AFloatArgInAnIntegerExpression) {
  frontend::KernelSummary K = snippets::snippetKernel(
      "#pragma kopt optimize launch(grid: (int)a * 2; block: 32; smem: (int)(a * 64)) "
      "args(n = 1000, a = 2.5f) buffers(y[(int)(n * a)] inout)\n"
      "__global__ void k(int n, float a, float *y) { y[threadIdx.x] *= a; }\n");
  ASSERT_TRUE(K.Pragma.has_value()); // kopt check accepts it.
  llvm::Expected<evaluator::Workload> W = driver::workloadFor(K, "/t/k.cu");
  ASSERT_TRUE(bool(W)) << llvm::toString(W.takeError());
  EXPECT_EQ(W->Launch.Grid[0], 4u);
  EXPECT_EQ(W->Launch.SharedBytes, 160u);
  EXPECT_EQ(W->Args[2].buffer()->Count, 2500u);
}

TEST(CheckInspectAgreement, ATemplatesArgumentsInTheLaunch) {
  frontend::KernelSummary K = snippets::snippetKernel(
      "#pragma kopt optimize launch(grid: n / BLOCK; block: BLOCK) args(n = 1024) "
      "buffers(y[n] inout) instantiation(128)\n"
      "template <int BLOCK> __global__ void k(int n, float *y) { y[threadIdx.x] *= n; }\n"
      "template __global__ void k<128>(int, float *);\n");
  ASSERT_TRUE(K.Pragma.has_value());
  llvm::Expected<evaluator::Workload> W = driver::workloadFor(K, "/t/k.cu");
  ASSERT_TRUE(bool(W)) << llvm::toString(W.takeError());
  EXPECT_EQ(W->Launch.Grid[0], 8u);
  EXPECT_EQ(W->Launch.Block[0], 128u);
}

} // namespace
} // namespace kopt
