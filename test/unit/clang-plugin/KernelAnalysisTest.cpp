// The front end's per-kernel analyses on small snippets parsed from memory:
// how global memory accesses are classified, reads and writes, repeated
// accesses in loops, loops, and launch sites with their offsets.
#include "clang-plugin/parse/KernelFinder.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

// Enough of CUDA for the snippets (they parse with -nocudainc).
const char *const Prelude = R"(
struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
extern const __device__ uint3 threadIdx, blockIdx;
extern const __device__ dim3 blockDim, gridDim;
typedef struct CUstream_st *cudaStream_t;
extern "C" int cudaConfigureCall(dim3, dim3, unsigned long = 0, cudaStream_t = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3, dim3, unsigned long = 0, void * = 0);
__device__ void __syncthreads();
__device__ float expf(float);
__device__ int atomicAdd(int *, int);
)";

std::string withPrelude(llvm::StringRef Code) { return Prelude + Code.str(); }

std::vector<KernelSummary> parse(const std::string &Code) {
  std::string Diagnostics;
  llvm::raw_string_ostream OS(Diagnostics);
  llvm::Expected<std::vector<KernelSummary>> K =
      findKernelsInCode(Code, "/t/k.cu", kopt::fuzz::snippetClangArgs(), OS);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError()) << "\n" << Diagnostics;
    return {};
  }
  return std::move(*K);
}

// The features of the only kernel in Code.
KernelFeatures features(llvm::StringRef Code) {
  std::vector<KernelSummary> K = parse(withPrelude(Code));
  if (K.size() != 1) {
    ADD_FAILURE() << "expected one kernel, got " << K.size();
    return {};
  }
  return K[0].Features;
}

struct IndexCase {
  const char *Index;
  AccessPattern Pattern;
  const char *Stride;
};
// Names the case by its index expression when a test fails, not by its bytes.
void PrintTo(const IndexCase &C, std::ostream *OS) { *OS << '"' << C.Index << '"'; }

class AccessClassification : public ::testing::TestWithParam<IndexCase> {};

TEST_P(AccessClassification, OfTheIndexExpression) {
  const IndexCase &C = GetParam();
  KernelFeatures F = features(std::string("__global__ void k(float *p, int s, const int *q) {\n"
                                          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                          "  int r = blockIdx.y * blockDim.y + threadIdx.y;\n"
                                          "  float v = p[") +
                              C.Index + "];\n}\n");
  ASSERT_FALSE(F.Accesses.empty());
  const MemoryAccess &A = F.Accesses[0];
  EXPECT_EQ(A.Param, "p");
  EXPECT_EQ(A.Index, C.Index);
  EXPECT_STREQ(accessPatternName(A.Pattern), accessPatternName(C.Pattern)) << C.Index;
  EXPECT_EQ(A.Stride, C.Stride) << C.Index;
  EXPECT_TRUE(A.Read);
  EXPECT_FALSE(A.Write);
}

INSTANTIATE_TEST_SUITE_P(
    KernelAnalysis, AccessClassification,
    ::testing::Values(IndexCase{"i", AccessPattern::Coalesced, ""},
                      IndexCase{"threadIdx.x", AccessPattern::Coalesced, ""},
                      IndexCase{"i + 4", AccessPattern::Coalesced, ""},
                      IndexCase{"(s + i)", AccessPattern::Coalesced, ""},
                      IndexCase{"2 * i", AccessPattern::Strided, "2"},
                      IndexCase{"i * s", AccessPattern::Strided, "s"},
                      IndexCase{"i << 2", AccessPattern::Strided, "4"},
                      IndexCase{"s * (threadIdx.x + 1)", AccessPattern::Strided, "s"},
                      IndexCase{"-i", AccessPattern::Strided, "-1"},
                      IndexCase{"r * s + 3", AccessPattern::Broadcast, ""},
                      IndexCase{"blockIdx.x", AccessPattern::Broadcast, ""},
                      IndexCase{"i - threadIdx.x", AccessPattern::Broadcast, ""},
                      IndexCase{"q[i]", AccessPattern::Indirect, ""},
                      IndexCase{"i + q[0]", AccessPattern::Indirect, ""},
                      IndexCase{"i / 2", AccessPattern::Other, ""},
                      IndexCase{"i * i", AccessPattern::Other, ""},
                      IndexCase{"i % s", AccessPattern::Other, ""}));

TEST(KernelAnalysis, AccessesThroughPointerCopiesAndDereferences) {
  KernelFeatures F = features("__global__ void k(float *p, int s) {\n"
                              "  int r = blockIdx.y;\n"
                              "  float *row = p + r * s;\n"
                              "  row[threadIdx.x] = *(p + threadIdx.x * 2) + *p;\n"
                              "}\n");
  ASSERT_EQ(F.Accesses.size(), 3u);
  EXPECT_EQ(F.Accesses[0].Index, "r * s + threadIdx.x");
  EXPECT_EQ(F.Accesses[0].Pattern, AccessPattern::Coalesced);
  EXPECT_TRUE(F.Accesses[0].Write);
  EXPECT_FALSE(F.Accesses[0].Read);
  EXPECT_EQ(F.Accesses[1].Index, "threadIdx.x * 2");
  EXPECT_EQ(F.Accesses[1].Pattern, AccessPattern::Strided);
  EXPECT_EQ(F.Accesses[1].Stride, "2");
  EXPECT_EQ(F.Accesses[2].Index, "0");
  EXPECT_EQ(F.Accesses[2].Pattern, AccessPattern::Broadcast);
}

TEST(KernelAnalysis, ReadsAndWrites) {
  KernelFeatures F = features("__global__ void k(float *a, float *b, float *c, int *d) {\n"
                              "  unsigned i = threadIdx.x;\n"
                              "  a[i] = 1;\n"
                              "  b[i] += 1;\n"
                              "  c[i]++;\n"
                              "  atomicAdd(&d[i], 1);\n"
                              "}\n");
  ASSERT_EQ(F.Accesses.size(), 4u);
  EXPECT_TRUE(!F.Accesses[0].Read && F.Accesses[0].Write);
  for (size_t I = 1; I < 4; ++I)
    EXPECT_TRUE(F.Accesses[I].Read && F.Accesses[I].Write) << F.Accesses[I].Param;
  ASSERT_EQ(F.Atomics.size(), 1u);
  EXPECT_EQ(F.Atomics[0].Name, "atomicAdd");
}

// A 2-D or 3-D array parameter (PolyBench's DATA_TYPE A[N][M]): one access
// at the flattened index, read or written where the element is, classified
// across the warp like its flattened spelling.
TEST(KernelAnalysis, MultidimensionalArrayParameters) {
  KernelFeatures F =
      features("#define N 64\n#define M 32\n"
               "__global__ void k(float C[N][N], float A[N][M], float T[4][N][M]) {\n"
               "  int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  int i = blockIdx.y * blockDim.y + threadIdx.y;\n"
               "  C[i][j] *= 2.0f;\n"
               "  for (int k = 0; k < M; k++)\n"
               "    C[i][j] += A[i][k] * A[j][k] + T[1][(i + 1)][k];\n"
               "}\n");
  ASSERT_EQ(F.Accesses.size(), 5u);
  const MemoryAccess &Scale = F.Accesses[0];
  EXPECT_EQ(Scale.Param, "C");
  EXPECT_EQ(Scale.Index, "i * 64 + j");
  EXPECT_TRUE(Scale.Read && Scale.Write);
  EXPECT_EQ(Scale.Pattern, AccessPattern::Coalesced);
  EXPECT_EQ(F.Accesses[1].Index, "i * 64 + j");
  EXPECT_TRUE(F.Accesses[1].Read && F.Accesses[1].Write);
  EXPECT_EQ(F.Accesses[2].Index, "i * 32 + k");
  EXPECT_EQ(F.Accesses[2].Pattern, AccessPattern::Broadcast);
  EXPECT_TRUE(F.Accesses[2].Read && !F.Accesses[2].Write);
  EXPECT_EQ(F.Accesses[3].Index, "j * 32 + k");
  EXPECT_EQ(F.Accesses[3].Pattern, AccessPattern::Strided);
  EXPECT_EQ(F.Accesses[3].Stride, "32");
  EXPECT_EQ(F.Accesses[4].Param, "T");
  EXPECT_EQ(F.Accesses[4].Index, "1 * 2048 + (i + 1) * 32 + k");
  // C[i][j] is the same element on every iteration of the k loop.
  ASSERT_EQ(F.RepeatedAccesses.size(), 1u);
  EXPECT_EQ(F.RepeatedAccesses[0].Param, "C");
  EXPECT_TRUE(F.RepeatedAccesses[0].Write);
}

TEST(KernelAnalysis, RepeatedAccessInALoop) {
  KernelFeatures F = features("__global__ void k(float *y, const float *x, int n) {\n"
                              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "  for (int j = 0; j < n; ++j)\n"
                              "    for (int k = 0; k < n; k += 2)\n"
                              "      y[i] += x[k] * x[j];\n"
                              "}\n");
  ASSERT_EQ(F.Loops.size(), 2u);
  EXPECT_EQ(F.Loops[1].Depth, 1u);
  EXPECT_EQ(F.Loops[1].Step, "2");
  // y[i] along the inner loop; x[k] along the outer one (each inner loop
  // reads the same x[k]); x[j] along the inner loop.
  ASSERT_EQ(F.RepeatedAccesses.size(), 3u);
  EXPECT_EQ(F.RepeatedAccesses[0].Param, "y");
  EXPECT_EQ(F.RepeatedAccesses[0].Loop, 1);
  EXPECT_TRUE(F.RepeatedAccesses[0].Read && F.RepeatedAccesses[0].Write);
  EXPECT_EQ(F.RepeatedAccesses[1].Index, "k");
  EXPECT_EQ(F.RepeatedAccesses[1].Loop, 0);
  EXPECT_EQ(F.RepeatedAccesses[2].Param, "x");
  EXPECT_EQ(F.RepeatedAccesses[2].Index, "j");
  EXPECT_EQ(F.RepeatedAccesses[2].Loop, 1);
  EXPECT_FALSE(F.RepeatedAccesses[2].Write);
}

TEST(KernelAnalysis, LoopsGuardsAndDimensions) {
  KernelFeatures F = features("__global__ void k(float *p, int n, int m) {\n"
                              "  int z = threadIdx.z;\n"
                              "  if (threadIdx.x >= n || z < 2) return;\n"
                              "  for (int j = n; j > 0; j -= 3) p[j] = 0;\n"
                              "  while (m > 0) --m;\n"
                              "  __syncthreads();\n"
                              "  p[0] = expf(p[1]);\n"
                              "}\n");
  EXPECT_EQ(F.Dimensions, 3u);
  ASSERT_EQ(F.Guards.size(), 1u);
  EXPECT_EQ(F.Guards[0].Condition, "threadIdx.x >= n");
  EXPECT_EQ(F.Guards[0].Params, std::vector<std::string>{"n"});
  ASSERT_EQ(F.Loops.size(), 2u);
  EXPECT_EQ(F.Loops[0].InductionVar, "j");
  EXPECT_EQ(F.Loops[0].Init, "n");
  EXPECT_EQ(F.Loops[0].Comparison, ">");
  EXPECT_EQ(F.Loops[0].Bound, "0");
  EXPECT_EQ(F.Loops[0].Step, "-(3)");
  EXPECT_TRUE(F.Loops[0].Canonical);
  EXPECT_EQ(F.Loops[1].LoopKind, LoopFeature::Kind::While);
  EXPECT_FALSE(F.Loops[1].Canonical);
  ASSERT_EQ(F.Barriers.size(), 1u);
  ASSERT_EQ(F.MathCalls.size(), 1u);
  EXPECT_EQ(F.MathCalls[0].Name, "expf");
}

// A CSR row's loop (from P[I] to P[I + 1]) marks P as offsets and the buffers
// it indexes with its variable as rows, however the bounds are spelled.
struct OffsetsCase {
  const char *Name, *Body;
};
class OffsetsLoops : public ::testing::TestWithParam<OffsetsCase> {};

TEST_P(OffsetsLoops, MarkOffsetsAndRows) {
  KernelFeatures F = features(std::string("__global__ void k(const int *rowptr, const int *col, "
                                          "const float *val, const float *x, float *y, int n) {\n"
                                          "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                          "  if (r >= n) return;\n"
                                          "  float t = 0.0f;\n") +
                              GetParam().Body + "  y[r] = t;\n}\n");
  ASSERT_EQ(F.Loops.size(), 1u);
  EXPECT_EQ(F.Loops[0].OffsetsParam, "rowptr");
  EXPECT_EQ(F.Loops[0].RowParams, (std::vector<std::string>{"col", "val"}));
  EXPECT_EQ(F.Loops[0].BoundParams, std::vector<std::string>{"rowptr"});
}

const OffsetsCase OffsetsSpellings[] = {
    {"Direct", "  for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) t += x[col[j]] * val[j];\n"},
    {"ThroughLocals", "  int s = rowptr[r], e = rowptr[r + 1];\n"
                      "  for (int j = s; j < e; j++) { int c = col[j]; t += x[c] * val[j]; }\n"},
    {"AssignedStart",
     "  int j;\n"
     "  for (j = rowptr[r]; (rowptr[1 + r]) > j; j += 1) t += x[col[j]] * val[j];\n"},
    {"While", "  int j = rowptr[r];\n"
              "  int end = rowptr[r + 1];\n"
              "  while (j != end) { t += x[col[j]] * val[j]; ++j; }\n"},
};
INSTANTIATE_TEST_SUITE_P(KernelAnalysis, OffsetsLoops, ::testing::ValuesIn(OffsetsSpellings),
                         [](const auto &Info) { return std::string(Info.param.Name); });

TEST(KernelAnalysis, NotOffsets) {
  // A count (k < cnt[r]), bounds from two buffers, a start one row off, and a
  // stencil reading idx at i and i + 1 outside any bound: no offsets.
  KernelFeatures F =
      features("__global__ void k(const int *cnt, const int *lo, const int *hi, const int *idx,\n"
               "                  const float *a, float *y, int n) {\n"
               "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  float t = 0.0f;\n"
               "  for (int k = 0; k < cnt[r]; ++k) t += a[k];\n"
               "  for (int k = lo[r]; k < hi[r + 1]; ++k) t += a[k];\n"
               "  for (int k = lo[r + 1]; k < lo[r + 1]; ++k) t += a[k];\n"
               "  for (int i = 0; i < n; ++i) t += a[idx[i]] - a[idx[i + 1]];\n"
               "  y[r] = t;\n"
               "}\n");
  ASSERT_EQ(F.Loops.size(), 4u);
  for (const LoopFeature &L : F.Loops) {
    EXPECT_EQ(L.OffsetsParam, "") << L.Line;
    EXPECT_TRUE(L.RowParams.empty()) << L.Line;
  }
  EXPECT_EQ(F.Loops[0].BoundParams, std::vector<std::string>{"cnt"});
  EXPECT_TRUE(F.Loops[3].BoundParams.empty());
}

TEST(KernelAnalysis, LaunchSitesWithOffsets) {
  std::string Code = withPrelude("#define BLOCK 128\n"
                                 "__global__ void k(int n, float *p) {}\n"
                                 "namespace host {\n"
                                 "void go(float *p, cudaStream_t s) {\n"
                                 "  k<<<(1000 + BLOCK - 1) / BLOCK, BLOCK>>>(1000, p);\n"
                                 "  k<<<dim3(4, 2), BLOCK, 64, s>>>(7, p);\n"
                                 "}\n"
                                 "}\n");
  std::vector<KernelSummary> K = parse(Code);
  ASSERT_EQ(K.size(), 1u);
  ASSERT_EQ(K[0].LaunchSites.size(), 2u);
  const LaunchSite &First = K[0].LaunchSites[0], &Second = K[0].LaunchSites[1];
  EXPECT_EQ(First.Caller, "host::go");
  EXPECT_EQ(First.Column, 3u);
  EXPECT_EQ(Code.substr(First.Begin, First.End - First.Begin),
            "k<<<(1000 + BLOCK - 1) / BLOCK, BLOCK>>>(1000, p)");
  EXPECT_EQ(First.Grid.Text, "(1000 + BLOCK - 1) / BLOCK");
  EXPECT_EQ(First.Grid.Expanded, "(1000 + 128 - 1) / 128");
  EXPECT_EQ(First.Block.Expanded, "128");
  EXPECT_FALSE(First.SharedMem);
  EXPECT_FALSE(First.Stream);
  ASSERT_EQ(First.Args.size(), 2u);
  for (const LaunchExpr *E : {&First.Grid, &First.Block, &First.Args[0], &First.Args[1],
                              &Second.Grid, &*Second.SharedMem, &*Second.Stream})
    EXPECT_EQ(Code.substr(E->Begin, E->End - E->Begin), E->Text);
  EXPECT_EQ(Second.Grid.Text, "dim3(4, 2)");
  ASSERT_TRUE(Second.SharedMem && Second.Stream);
  EXPECT_EQ(Second.SharedMem->Text, "64");
  EXPECT_EQ(Second.Stream->Text, "s");
  EXPECT_EQ(Second.Line, First.Line + 1);
}

TEST(KernelAnalysis, TemplateInstantiationsAndTheirLaunches) {
  std::vector<KernelSummary> K =
      parse(withPrelude("template <typename T, int B> __global__ void t(T *p) {}\n"
                        "void go(float *f, int *i) {\n"
                        "  t<float, 64><<<1, 64>>>(f);\n"
                        "  t<int, 32><<<1, 32>>>(i);\n"
                        "  t<float, 64><<<2, 64>>>(f);\n"
                        "}\n"));
  ASSERT_EQ(K.size(), 1u);
  ASSERT_EQ(K[0].Instantiations.size(), 2u);
  EXPECT_EQ(K[0].Instantiations[0].TemplateArgs, "float, 64");
  EXPECT_EQ(K[0].Instantiations[0].MangledName, "_Z1tIfLi64EEvPT_");
  EXPECT_EQ(K[0].Instantiations[1].TemplateArgs, "int, 32");
  ASSERT_EQ(K[0].LaunchSites.size(), 3u);
  EXPECT_EQ(K[0].LaunchSites[1].TemplateArgs, "int, 32");
}

} // namespace
