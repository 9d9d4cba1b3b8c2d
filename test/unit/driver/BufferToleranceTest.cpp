// buffers(y[n] out tol(rtol = F, atol = F)): a written buffer's own tolerance,
// from the pragma through the worker protocol to the comparison that judges a
// variant's outputs.
#include "driver/optimize/WorkloadFromKernel.h"
#include "evaluator/device/RunComparison.h"
#include "evaluator/worker/WorkerProtocol.h"
#include "test/unit/common/SnippetKernel.h"

#include <gtest/gtest.h>

namespace kopt {
namespace {

using evaluator::BufferArg;
using evaluator::Tolerance;

evaluator::Workload workloadOf(const std::string &Code) {
  frontend::KernelSummary K = snippets::snippetKernel(Code);
  llvm::Expected<evaluator::Workload> W = driver::workloadFor(K, "/t/k.cu");
  if (!W) {
    ADD_FAILURE() << llvm::toString(W.takeError());
    return {};
  }
  return std::move(*W);
}

TEST(BufferTolerance, APragmaBufferToleranceOverridesTheClause) {
  evaluator::Workload W =
      workloadOf("#pragma kopt optimize launch(grid: 1; block: 32) args(n = 32) "
                 "buffers(x[n] in, y[n] out tol(atol = 10), z[n] out) tol(rtol = 1e-3)\n"
                 "__global__ void k(int n, const float *x, float *y, float *z) {\n"
                 "  int i = threadIdx.x; if (i < n) { y[i] = x[i]; z[i] = x[i]; } }\n");
  ASSERT_EQ(W.Args.size(), 4u);
  ASSERT_TRUE(W.Tol.has_value());
  EXPECT_DOUBLE_EQ(W.Tol->Rtol, 1e-3);
  const BufferArg *Y = W.Args[2].buffer();
  ASSERT_TRUE(Y && Y->Tol);
  EXPECT_DOUBLE_EQ(Y->Tol->Atol, 10);   // Its own.
  EXPECT_DOUBLE_EQ(Y->Tol->Rtol, 1e-3); // The tol clause's, where it says none.
  EXPECT_FALSE(W.Args[3].buffer()->Tol.has_value());
  EXPECT_FALSE(W.Args[1].buffer()->Tol.has_value());

  // The worker receives it.
  nlohmann::json J = W;
  evaluator::Workload Back = J.get<evaluator::Workload>();
  ASSERT_TRUE(Back.Args[2].buffer()->Tol.has_value());
  EXPECT_DOUBLE_EQ(Back.Args[2].buffer()->Tol->Atol, 10);
  EXPECT_EQ(nlohmann::json(Back), J);

  // And compares y with it, z with the clause's, x exactly.
  std::vector<Tolerance> Asked;
  evaluator::RunResult Clean;
  Clean.Buffers.resize(3);
  auto V = evaluator::compareRuns(Back, Clean, [&](size_t, const BufferArg &, const Tolerance &T) {
    Asked.push_back(T);
    return llvm::Expected<evaluator::BufferComparison>(evaluator::BufferComparison());
  });
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  ASSERT_EQ(Asked.size(), 3u);
  EXPECT_DOUBLE_EQ(Asked[0].Rtol + Asked[0].Atol, 0);
  EXPECT_DOUBLE_EQ(Asked[1].Atol, 10);
  EXPECT_DOUBLE_EQ(Asked[2].Rtol, 1e-3);
  EXPECT_NE(Asked[2].Atol, 10);
}

TEST(BufferTolerance, WithoutTheClauseTheElementDefaultFillsIn) {
  evaluator::Workload W =
      workloadOf("#pragma kopt optimize launch(grid: 1; block: 32) args(n = 32) "
                 "buffers(x[n] in, y[n] out tol(rtol = 0.5))\n"
                 "__global__ void k(int n, const double *x, double *y) {\n"
                 "  int i = threadIdx.x; if (i < n) y[i] = x[i]; }\n");
  ASSERT_EQ(W.Args.size(), 3u);
  const BufferArg *Y = W.Args[2].buffer();
  ASSERT_TRUE(Y && Y->Tol);
  EXPECT_DOUBLE_EQ(Y->Tol->Rtol, 0.5);
  EXPECT_DOUBLE_EQ(Y->Tol->Atol, evaluator::defaultTolerance(evaluator::ScalarType::F64).Atol);
}

} // namespace
} // namespace kopt
