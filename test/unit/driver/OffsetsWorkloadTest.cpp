// CSR row offsets (a loop from rowptr[r] to rowptr[r + 1]) generated as rows:
// the layout the pragma's range gives (row lengths), capped so the last offset
// stays inside the row buffers, carried through the worker protocol into the
// generator; the element's formula is the one the device reproduces
// (test/gpu/DeviceVerifyTest.cpp).
#include "driver/optimize/WorkloadFromKernel.h"
#include "evaluator/worker/WorkerProtocol.h"
#include "evaluator/workload/InputGenerator.h"
#include "test/unit/common/SnippetKernel.h"

#include <gtest/gtest.h>

#include <cstring>

namespace kopt {
namespace {

using evaluator::BufferArg;
using evaluator::OffsetsLayout;
using evaluator::ScalarType;

std::string spmv(const std::string &RowPtr, const std::string &Val = "val[rows * 16] in") {
  return "#pragma kopt optimize launch(grid: 16; block: 256) args(rows = 4000) buffers(" + Val +
         ", col[rows * 16] in range(0, rows), " + RowPtr +
         ", x[rows] in, y[rows] out)\n"
         "__global__ void spmv(int rows, const float *val, const int *col, const int *rowptr,\n"
         "                     const float *x, float *y) {\n"
         "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (r >= rows) return;\n"
         "  int start = rowptr[r], end = rowptr[r + 1];\n"
         "  float t = 0.0f;\n"
         "  for (int j = start; j < end; ++j)\n"
         "    t += val[j] * x[col[j]];\n"
         "  y[r] = t;\n"
         "}\n";
}

struct Built {
  llvm::Expected<evaluator::Workload> W;
  std::vector<std::string> Notes;
};
Built build(const std::string &Code) {
  frontend::KernelSummary K = snippets::snippetKernel(Code);
  std::vector<std::string> Notes;
  auto W = driver::workloadFor(K, "/t/k.cu", &Notes);
  return {std::move(W), std::move(Notes)};
}

std::vector<int32_t> offsets(const BufferArg &B, uint64_t Seed) {
  std::vector<uint8_t> Bytes = evaluator::generateBufferInput(B, Seed, 2);
  std::vector<int32_t> Out(B.Count);
  std::memcpy(Out.data(), Bytes.data(), Bytes.size());
  return Out;
}

TEST(OffsetsLayout, RangeGivesRowLengths) {
  auto C = driver::offsetsLayout({4, 21}, 1000, UINT64_MAX);
  EXPECT_EQ(C.Layout, (OffsetsLayout{12, 8})); // Lengths 4..20, mean 12.
  EXPECT_FALSE(C.Capped);
  C = driver::offsetsLayout({0, 16}, 1000, UINT64_MAX); // The default integers.
  EXPECT_EQ(C.Layout, (OffsetsLayout{7, 7}));
  C = driver::offsetsLayout({5, 6}, 10, UINT64_MAX); // Every row 5 long.
  EXPECT_EQ(C.Layout, (OffsetsLayout{5, 0}));
  C = driver::offsetsLayout({-3, 1}, 10, UINT64_MAX); // Lengths are never negative.
  EXPECT_EQ(C.Layout, (OffsetsLayout{0, 0}));
}

TEST(OffsetsLayout, CapLowersMeanAndJitter) {
  // 1000 rows of 12 +- 8 need up to 12008 elements; the row buffers have 8000.
  auto C = driver::offsetsLayout({4, 21}, 1000, 8000);
  EXPECT_TRUE(C.Capped);
  EXPECT_EQ(C.Layout.Mean, 8u);
  EXPECT_EQ(C.Layout.Jitter, 0u); // 1000 * 8 leaves none.
  C = driver::offsetsLayout({4, 21}, 1000, 8005);
  EXPECT_EQ(C.Layout, (OffsetsLayout{8, 5}));
  EXPECT_LE(1000 * C.Layout.Mean + C.Layout.Jitter, 8005u);
  C = driver::offsetsLayout({4, 21}, 1000, 12008); // Exactly fits.
  EXPECT_FALSE(C.Capped);
}

TEST(OffsetsWorkload, RowPointersAreGeneratedAsRows) {
  Built B = build(spmv("rowptr[rows + 1] in range(4, 21)"));
  ASSERT_TRUE(bool(B.W)) << llvm::toString(B.W.takeError());
  const BufferArg *RowPtr = B.W->Args[3].buffer();
  ASSERT_TRUE(RowPtr && RowPtr->Offsets);
  EXPECT_EQ(*RowPtr->Offsets, (OffsetsLayout{12, 8}));
  EXPECT_FALSE(RowPtr->Range); // It gave the lengths, not the values.
  EXPECT_TRUE(B.Notes.empty());
  // Other buffers as before: col keeps its range as values.
  ASSERT_TRUE(B.W->Args[2].buffer()->Range);
  EXPECT_FALSE(B.W->Args[2].buffer()->Offsets);
  for (uint64_t Seed : {1u, 7u}) {
    std::vector<int32_t> P = offsets(*RowPtr, Seed);
    ASSERT_EQ(P.size(), 4001u);
    EXPECT_EQ(P[0], 0);
    int64_t Min = INT64_MAX, Max = 0;
    for (size_t I = 0; I + 1 < P.size(); ++I) {
      int64_t Length = int64_t(P[I + 1]) - P[I];
      Min = std::min(Min, Length);
      Max = std::max(Max, Length);
    }
    EXPECT_GE(Min, 4);  // Mean - jitter.
    EXPECT_LE(Max, 20); // Mean + jitter.
    EXPECT_LT(Min, 6);  // Spread, not one length.
    EXPECT_GT(Max, 18);
    EXPECT_LE(P.back(), 4000 * 16); // Inside val and col.
    EXPECT_NEAR(double(P.back()) / 4000, 12.0, 0.5);
    // The host's bytes are the formula the device reproduces.
    uint64_t Key = evaluator::inputStreamKey(Seed, 2);
    for (uint64_t I : {0ull, 1ull, 2ull, 1234ull, 4000ull})
      EXPECT_EQ(uint64_t(P[I]),
                evaluator::offsetsElement(evaluator::inputElementBits(Key, I), I, *RowPtr->Offsets))
          << I;
  }
}

TEST(OffsetsWorkload, TheRowBuffersCapTheLastOffsetWithANote) {
  Built B = build(spmv("rowptr[rows + 1] in range(0, 40)", "val[rows * 4] in"));
  ASSERT_TRUE(bool(B.W)) << llvm::toString(B.W.takeError());
  const BufferArg *RowPtr = B.W->Args[3].buffer();
  ASSERT_TRUE(RowPtr && RowPtr->Offsets);
  EXPECT_EQ(RowPtr->Offsets->Mean, 4u); // val has 4 a row.
  ASSERT_EQ(B.Notes.size(), 1u);
  EXPECT_NE(B.Notes[0].find("'rowptr' is generated as the offsets of 4000 rows of 4 +- 0"),
            std::string::npos)
      << B.Notes[0];
  EXPECT_NE(B.Notes[0].find("16000 ('val')"), std::string::npos) << B.Notes[0];
  std::vector<int32_t> P = offsets(*RowPtr, 3);
  EXPECT_LE(P.back(), 16000);
}

TEST(OffsetsWorkload, WithoutARangeTheDefaultLengths) {
  Built B = build(spmv("rowptr[rows + 1] in"));
  ASSERT_TRUE(bool(B.W)) << llvm::toString(B.W.takeError());
  ASSERT_TRUE(B.W->Args[3].buffer()->Offsets);
  EXPECT_EQ(*B.W->Args[3].buffer()->Offsets, (OffsetsLayout{7, 7}));
}

TEST(OffsetsWorkload, CountsStayRandomValues) {
  // A count read once (k < cnt[r]) is not an offsets buffer: its range is values.
  Built B = build("#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1000) "
                  "buffers(cnt[n] in range(1, 9), a[n * 8] in, y[n] out)\n"
                  "__global__ void k(int n, const int *cnt, const float *a, float *y) {\n"
                  "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  if (r >= n) return;\n"
                  "  float t = 0.0f;\n"
                  "  for (int k = 0; k < cnt[r]; ++k) t += a[r * 8 + k];\n"
                  "  y[r] = t;\n"
                  "}\n");
  ASSERT_TRUE(bool(B.W)) << llvm::toString(B.W.takeError());
  EXPECT_FALSE(B.W->Args[1].buffer()->Offsets);
  EXPECT_TRUE(B.W->Args[1].buffer()->Range);
}

TEST(OffsetsWorkload, TheWorkerProtocolCarriesTheLayout) {
  Built B = build(spmv("rowptr[rows + 1] in range(4, 21)"));
  ASSERT_TRUE(bool(B.W)) << llvm::toString(B.W.takeError());
  nlohmann::json J = *B.W;
  EXPECT_EQ(J["args"][3]["offsets"], nlohmann::json({{"mean", 12}, {"jitter", 8}}));
  EXPECT_TRUE(J["args"][2]["offsets"].is_null());
  evaluator::Workload Back = J.get<evaluator::Workload>();
  EXPECT_EQ(Back.Args[3].buffer()->Offsets, B.W->Args[3].buffer()->Offsets);
  EXPECT_FALSE(Back.Args[2].buffer()->Offsets);
  J["args"][3].erase("offsets"); // A missing key is an error, not a default.
  EXPECT_THROW(J.get<evaluator::Workload>(), std::exception);
}

} // namespace
} // namespace kopt
