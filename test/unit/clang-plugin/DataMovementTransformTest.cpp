// Parameter spaces of the transforms that change data movement (smem-tiling,
// register-blocking, scalar-replacement, vectorize, thread-mapping-swap): each offers its points
// on the kernel shape it rewrites and nothing on the others. The rewrites
// themselves are pinned by test/lit/transforms, which compile them with nvcc.
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/transforms/framework/Transform.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

using namespace kopt;
using namespace kopt::transform;

namespace {

// Thread geometry as plain structs: enough for the front end's features.
const char *const Geometry = R"(
struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
extern const __device__ uint3 threadIdx, blockIdx;
extern const __device__ dim3 blockDim, gridDim;
)";

// The ids of the data-movement transforms that offer points for Code's kernel.
std::vector<std::string> offered(const std::string &Code) {
  std::string Log;
  llvm::raw_string_ostream OS(Log);
  auto Kernels =
      frontend::findKernelsInCode(Geometry + Code, "/t/dm.cu", fuzz::snippetClangArgs(), OS);
  if (!Kernels || Kernels->size() != 1) {
    ADD_FAILURE() << (Kernels ? "not one kernel" : llvm::toString(Kernels.takeError())) << Log;
    return {};
  }
  std::vector<std::string> Ids;
  for (const char *Id : {"smem-tiling", "register-blocking", "scalar-replacement", "vectorize",
                         "thread-mapping-swap"}) {
    const Transform *T = findTransform(Id);
    EXPECT_NE(T, nullptr) << Id;
    if (T && T->offer(Kernels->front(), {}).offered())
      Ids.push_back(Id);
  }
  return Ids;
}

using Ids = std::vector<std::string>;

// A naive matmul whose row follows RowDim and column ColDim.
std::string matmul(char RowDim, char ColDim) {
  std::string R(1, RowDim), C(1, ColDim);
  return "__global__ void mm(const float *A, const float *B, float *C, int n) {\n"
         "  int r = blockIdx." +
         R + " * blockDim." + R + " + threadIdx." + R +
         ";\n"
         "  int c = blockIdx." +
         C + " * blockDim." + C + " + threadIdx." + C +
         ";\n"
         "  if (r < n && c < n) {\n"
         "    float acc = 0;\n"
         "    for (int k = 0; k < n; ++k)\n"
         "      acc += A[r * n + k] * B[k * n + c];\n"
         "    C[r * n + c] = acc;\n"
         "  }\n"
         "}\n";
}

TEST(DataMovementSpace, MatmulIsTiled) {
  EXPECT_EQ(offered(matmul('y', 'x')), (Ids{"smem-tiling", "register-blocking"}));
}

// Row from x: lanes stride through A and C.
TEST(DataMovementSpace, ReversedMatmulIsTiledOrSwapped) {
  EXPECT_EQ(offered(matmul('x', 'y')),
            (Ids{"smem-tiling", "register-blocking", "thread-mapping-swap"}));
}

TEST(DataMovementSpace, AccumulationIntoGlobalIsScalarReplaced) {
  EXPECT_EQ(offered(R"(
__global__ void acc(const float *x, float *out, int n, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n)
    for (int c = 0; c < m; ++c)
      out[r] += x[r * m + c];
})"),
            (Ids{"scalar-replacement"}));
}

TEST(DataMovementSpace, ElementwiseIsVectorized) {
  EXPECT_EQ(offered(R"(
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
})"),
            (Ids{"vectorize"}));
  // A neighbour, or double elements: not elementwise over 4-byte values.
  EXPECT_EQ(offered(R"(
__global__ void diff(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    y[i] = x[i + 1] - x[i];
})"),
            Ids{});
  EXPECT_EQ(offered(R"(
__global__ void scale(double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 2.0;
})"),
            Ids{});
}

} // namespace
