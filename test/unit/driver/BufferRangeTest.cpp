// buffers(a[n] in range(LO, HI)): where a buffer's inputs are drawn from, from
// the pragma through the worker protocol to the generator (the device's
// generator is checked against the host's in test/gpu/DeviceVerifyTest.cpp).
#include "driver/optimize/WorkloadFromKernel.h"
#include "evaluator/worker/WorkerProtocol.h"
#include "evaluator/workload/InputGenerator.h"
#include "test/unit/common/SnippetKernel.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

namespace kopt {
namespace {

using evaluator::BufferArg;
using evaluator::ScalarType;

llvm::Expected<evaluator::Workload>
workloadOf(const std::string &Clauses, const std::string &Params, const std::string &Prelude = "") {
  frontend::KernelSummary K = snippets::snippetKernel(
      Prelude + "#pragma kopt optimize launch(grid: 1; block: 32) args(n = 1000) " + Clauses +
      "\n" + "__global__ void k(int n, " + Params + ") { }\n");
  return driver::workloadFor(K, "/t/k.cu");
}

template <typename T> std::vector<T> values(const BufferArg &B, uint64_t Seed = 1) {
  std::vector<uint8_t> Bytes = evaluator::generateBufferInput(B, Seed, 0);
  std::vector<T> Out(B.Count);
  std::memcpy(Out.data(), Bytes.data(), Bytes.size());
  return Out;
}

TEST(BufferRange, FloatsComeFromTheRange) {
  auto W =
      workloadOf("buffers(a[n] in range(0.5, 2.0), b[n] in)", "const float *a, const float *b");
  ASSERT_TRUE(bool(W)) << llvm::toString(W.takeError());
  const BufferArg *A = W->Args[1].buffer();
  ASSERT_TRUE(A && A->Range);
  EXPECT_DOUBLE_EQ(A->Range->Lo, 0.5);
  EXPECT_DOUBLE_EQ(A->Range->Hi, 2.0);
  EXPECT_FALSE(W->Args[2].buffer()->Range.has_value());
  std::vector<float> V = values<float>(*A);
  float Min = *std::min_element(V.begin(), V.end()), Max = *std::max_element(V.begin(), V.end());
  EXPECT_GE(Min, 0.5f);
  EXPECT_LT(Max, 2.0f);
  EXPECT_LT(Min, 0.6f); // Spread over the range, not one value.
  EXPECT_GT(Max, 1.9f);
  // The same seed gives the same inputs; without a range, [-1, 1) as before.
  EXPECT_EQ(V, values<float>(*A));
  std::vector<float> Plain = values<float>(*W->Args[2].buffer());
  EXPECT_LT(*std::min_element(Plain.begin(), Plain.end()), 0.0f);
}

TEST(BufferRange, IntegerIndicesCoverTheRange) {
  // Indices into a vector of n elements, and offsets that may be negative.
  auto W = workloadOf("buffers(cols[n] in range(0, n), d[n] in range(-2, 3), x[n] in)",
                      "const int *cols, const long long *d, const float *x");
  ASSERT_TRUE(bool(W)) << llvm::toString(W.takeError());
  const BufferArg *Cols = W->Args[1].buffer();
  ASSERT_TRUE(Cols && Cols->Range);
  std::vector<int32_t> C = values<int32_t>(*Cols);
  std::set<int32_t> Seen(C.begin(), C.end());
  EXPECT_GE(*Seen.begin(), 0);
  EXPECT_LT(*Seen.rbegin(), 1000);
  EXPECT_GT(Seen.size(), 500u); // Not [0, 16) any more.
  // The integers in [-2, 3), stored in 64 bits with their sign.
  std::vector<int64_t> D = values<int64_t>(*W->Args[2].buffer());
  std::set<int64_t> DSeen(D.begin(), D.end());
  EXPECT_EQ(DSeen, (std::set<int64_t>{-2, -1, 0, 1, 2}));
}

TEST(BufferRange, TheWorkerReceivesIt) {
  auto W = workloadOf("buffers(a[n] in range(1, 4))", "const double *a");
  ASSERT_TRUE(bool(W)) << llvm::toString(W.takeError());
  nlohmann::json J = *W;
  evaluator::Workload Back = J.get<evaluator::Workload>();
  const BufferArg *A = Back.Args[1].buffer();
  ASSERT_TRUE(A && A->Range);
  EXPECT_DOUBLE_EQ(A->Range->Lo, 1);
  EXPECT_DOUBLE_EQ(A->Range->Hi, 4);
  EXPECT_EQ(nlohmann::json(Back), J);
}

} // namespace
} // namespace kopt
