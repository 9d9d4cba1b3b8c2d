// row-cooperative's reach: the skill's predicate holds and the transform offers
// block sizes on thread-per-row kernels (softmax, matvec), and neither offers
// nor applies on the shapes it must leave alone. The rewrites themselves are
// pinned by test/lit/transforms/row-cooperative.test, which compiles them.
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/transforms/framework/Transform.h"
#include "memory/experience/KernelFacts.h"
#include "memory/skills/SkillLibrary.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

using namespace kopt;
using namespace kopt::transform;

namespace {

const char *const Prelude = R"(
struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
extern const __device__ uint3 threadIdx, blockIdx;
extern const __device__ dim3 blockDim, gridDim;
__device__ float expf(float);
__device__ float fmaxf(float, float);
typedef unsigned long size_t;
)";

struct Case {
  bool SkillHolds = false;
  std::vector<ParamSet> Space;
  std::string ApplyError; // Empty where block=256 applied.
};

Case study(const std::string &Code) {
  Case C;
  std::string Log;
  llvm::raw_string_ostream OS(Log);
  std::string Text = Prelude + Code;
  auto Kernels = frontend::findKernelsInCode(Text, "/t/rows.cu", fuzz::snippetClangArgs(), OS);
  if (!Kernels || Kernels->size() != 1) {
    ADD_FAILURE() << (Kernels ? "not one kernel" : llvm::toString(Kernels.takeError())) << Log;
    return C;
  }
  const frontend::KernelSummary &K = Kernels->front();
  llvm::Expected<memory::SkillLibrary> L = memory::SkillLibrary::loadDirectory(KOPT_SKILLS_DIR);
  if (!L) {
    ADD_FAILURE() << llvm::toString(L.takeError());
    return C;
  }
  const memory::Skill *S = L->find("row-cooperative");
  EXPECT_NE(S, nullptr);
  if (S)
    C.SkillHolds = S->When.holds(memory::factsFor(K.Features, {}));
  const Transform *T = findTransform("row-cooperative");
  EXPECT_NE(T, nullptr);
  if (!T)
    return C;
  C.Space = T->offer(K, {}).points();
  llvm::Expected<TransformOutput> Out =
      T->apply(TransformInput{K, Text, fuzz::snippetClangArgs()}, {{"block", 256}});
  if (!Out)
    C.ApplyError = llvm::toString(Out.takeError());
  else
    EXPECT_EQ(Out->Launch->Grid[0], "grid_x * block_x");
  return C;
}

const std::vector<ParamSet> AllBlocks = {
    {{"block", 256}}, {{"block", 512}}, {{"block", 128}}, {{"block", 32}}};

TEST(RowCooperative, SoftmaxRowsGetABlockEach) {
  Case C = study(R"(
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 4096, cols = 65536) \
    buffers(x[rows * cols] in, y[rows * cols] out)
__global__ void softmax(int rows, int cols, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *in = x + (size_t)r * cols;
    float *out = y + (size_t)r * cols;
    float mx = in[0];
    for (int j = 1; j < cols; j++)
      mx = fmaxf(mx, in[j]);
    float sum = 0.0f;
    for (int j = 0; j < cols; j++)
      sum += expf(in[j] - mx);
    for (int j = 0; j < cols; j++)
      out[j] = expf(in[j] - mx) / sum;
  }
})");
  EXPECT_TRUE(C.SkillHolds);
  EXPECT_EQ(C.Space, AllBlocks);
  EXPECT_EQ(C.ApplyError, "");
}

TEST(RowCooperative, MatvecWithoutPragmaArgsOffersEveryBlock) {
  Case C = study(R"(
__global__ void matvec(int m, int k, const float *a, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
      sum += a[(size_t)row * k + p] * x[p];
    y[row] = sum;
  }
})");
  EXPECT_TRUE(C.SkillHolds);
  EXPECT_EQ(C.Space, AllBlocks);
  EXPECT_EQ(C.ApplyError, "");
}

// A convolution-like window of 3: too short a row to share.
TEST(RowCooperative, ShortRowsAreLeftAlone) {
  Case C = study(R"(
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 4096, k = 3) \
    buffers(x[n + k] in, y[n] out)
__global__ void window(int n, int k, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = 0.0f;
    for (int j = 0; j < k; j++)
      sum += x[i + j];
    y[i] = sum;
  }
})");
  EXPECT_TRUE(C.Space.empty());
}

// A sum over the middle dimension: neighbouring threads already read
// neighbouring addresses, and one block per output would read strided.
TEST(RowCooperative, CoalescedReductionsAreNotOffered) {
  Case C = study(R"(
__global__ void sum_dim(int batch, int dim, int inner, const float *x, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < batch * inner) {
    int b = t / inner;
    int j = t % inner;
    float sum = 0.0f;
    for (int k = 0; k < dim; k++)
      sum += x[((size_t)b * dim + k) * inner + j];
    out[t] = sum;
  }
})");
  EXPECT_TRUE(C.Space.empty());
  EXPECT_EQ(C.ApplyError, ""); // Correct, only not worth trying.
}

// Accumulating into out[r] in the loop: a sum kept in global memory, which
// another pointer the loop reads might reach; __restrict__ rules that out.
TEST(RowCooperative, AccumulationIntoGlobalNeedsNoAlias) {
  Case C = study(R"(
__global__ void acc(const float *x, float *out, int n, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n)
    for (int c = 0; c < m; ++c)
      out[r] += x[r * m + c];
})");
  EXPECT_NE(C.ApplyError.find("'out' may alias 'x' (no noalias clause, not __restrict__)"),
            std::string::npos)
      << C.ApplyError;
  Case R = study(R"(
__global__ void acc(const float *x, float *__restrict__ out, int n, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n)
    for (int c = 0; c < m; ++c)
      out[r] += x[r * m + c];
})");
  EXPECT_EQ(R.ApplyError, "");
}

// A row loop inside a thread-dependent branch would split a block at its
// barriers; the index shape check refuses other uses of threadIdx.
TEST(RowCooperative, OtherThreadIndexUsesAreRefused) {
  Case C = study(R"(
__global__ void odd(const float *x, float *y, int n, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n && threadIdx.x % 2 == 0) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += x[r * m + j];
    y[r] = s;
  }
})");
  EXPECT_NE(C.ApplyError.find("threadIdx.x outside"), std::string::npos) << C.ApplyError;
}

// Elementwise and 2D kernels: the skill does not hold.
TEST(RowCooperative, SkillDoesNotHoldWithoutRowLoops) {
  EXPECT_FALSE(study(R"(
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
})")
                   .SkillHolds);
  EXPECT_FALSE(study(R"(
__global__ void mm(const float *A, const float *B, float *C, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n && c < n) {
    float acc = 0;
    for (int k = 0; k < n; ++k)
      acc += A[r * n + k] * B[k * n + c];
    C[r * n + c] = acc;
  }
})")
                   .SkillHolds);
}

} // namespace
