// The normalizing passes (clang-plugin/transforms/normalize/Normalization.h), one at a
// time on small kernels: what each rewrites, what it leaves, and why it
// refuses. The idiom transforms that run them are pinned by
// test/lit/transforms, which compile and run the rewrites.
#include "clang-plugin/transforms/normalize/Normalization.h"
#include "clang-plugin/parse/KernelFinder.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

#include <regex>

using namespace kopt;
using namespace kopt::transform;

namespace {

const char *const Prelude = R"(
struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
extern const __device__ uint3 threadIdx, blockIdx;
extern const __device__ dim3 blockDim, gridDim;
)";

struct Result {
  std::string Text;    // The kernel's text after the pass (whitespace squeezed).
  std::string Summary; // What the pass said it did.
  std::string Error;   // Its refusal, where it refused.
};

// Squeezes runs of whitespace into one space: the passes keep lines, not layout.
std::string squeeze(const std::string &S) {
  return std::regex_replace(std::regex_replace(S, std::regex("\\s+"), " "), std::regex("^ | $"),
                            "");
}

Result run(llvm::Expected<std::string> (*Pass)(UnitAST &, const NormalizeOptions &),
           const std::string &Code, bool NoAlias = false) {
  Result R;
  std::string Log;
  llvm::raw_string_ostream OS(Log);
  std::string Text = Prelude + Code;
  auto Kernels = frontend::findKernelsInCode(Text, "/t/n.cu", fuzz::snippetClangArgs(), OS);
  if (!Kernels || Kernels->size() != 1) {
    ADD_FAILURE() << (Kernels ? "not one kernel" : llvm::toString(Kernels.takeError())) << Log;
    return R;
  }
  NormalizeOptions Options;
  Options.NoAlias = NoAlias;
  llvm::Expected<std::string> Out =
      rewriteUnit(TransformInput{Kernels->front(), Text, fuzz::snippetClangArgs()},
                  [&](UnitAST &U) -> llvm::Error {
                    llvm::Expected<std::string> S = Pass(U, Options);
                    if (!S)
                      return S.takeError();
                    R.Summary = *S;
                    return llvm::Error::success();
                  });
  if (!Out) {
    R.Error = llvm::toString(Out.takeError());
    return R;
  }
  // The text from the kernel on, and the line count: passes keep lines.
  EXPECT_EQ(std::count(Out->begin(), Out->end(), '\n'), std::count(Text.begin(), Text.end(), '\n'))
      << *Out;
  R.Text = squeeze(Out->substr(Out->find("__global__")));
  return R;
}

// counter-scoping

TEST(CounterScoping, CounterDeclaredBeforeItsLoopMovesIn) {
  Result R = run(scopeLoopCounters, R"(
__global__ void g(float *a, int n) {
  int k;
  for (k = 0; k < n; k++)
    a[k] = 0;
})");
  EXPECT_EQ(R.Summary, "declared k in its loop");
  EXPECT_EQ(R.Text, "__global__ void g(float *a, int n) { for (int k = 0; k < n; k++) a[k] = 0; }");
}

TEST(CounterScoping, OneDeclaratorOfSeveralGoes) {
  Result R = run(scopeLoopCounters, R"(
__global__ void g(float *a, int n) {
  int i = 1, k, j = 2;
  for (k = 0; k < n; k++)
    a[k] = i + j;
  unsigned first, second = 3;
  for (first = 0; first < n; ++first)
    a[first] += second;
})");
  EXPECT_EQ(R.Summary, "declared k, first in their loops");
  EXPECT_NE(R.Text.find("int i = 1, j = 2;"), std::string::npos) << R.Text;
  EXPECT_NE(R.Text.find("unsigned second = 3;"), std::string::npos) << R.Text;
  EXPECT_NE(R.Text.find("for (unsigned int first = 0;"), std::string::npos) << R.Text;
}

// Loops that each start by assigning the counter share nothing through it.
TEST(CounterScoping, TwoLoopsOfOneCounterGetOneEach) {
  Result R = run(scopeLoopCounters, R"(
__global__ void g(float *a, int n) {
  int k;
  for (k = 0; k < n; k++)
    a[k] = 0;
  for (k = 1; k < n; k++)
    a[k] += a[k - 1];
})");
  EXPECT_EQ(R.Summary, "declared k in its loop");
  EXPECT_NE(R.Text.find("for (int k = 0;"), std::string::npos);
  EXPECT_NE(R.Text.find("for (int k = 1;"), std::string::npos);
}

TEST(CounterScoping, CounterReadAfterItsLoopStays) {
  Result R = run(scopeLoopCounters, R"(
__global__ void g(float *a, int n) {
  int k;
  for (k = 0; k < n && a[k] != 0; k++)
    ;
  a[0] = k;
})");
  EXPECT_NE(R.Error.find("cannot declare 'k' in its loop: it is used outside the loops that "
                         "assign it first"),
            std::string::npos)
      << R.Error;
}

TEST(CounterScoping, CounterWhoseAddressIsTakenStays) {
  Result R = run(scopeLoopCounters, R"(
__global__ void g(float *a, int n) {
  int k;
  for (k = 0; k < n; k++) {
    int *p = &k;
    a[*p] = 0;
  }
})");
  EXPECT_NE(R.Error.find("its address is taken"), std::string::npos) << R.Error;
}

// index-inlining

TEST(IndexInlining, OperandIndexBecomesItsExpression) {
  Result R = run(inlineIndexLocals, R"(
__global__ void g(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; k++) {
    int ia = i * n + k;
    long ib = k * n + j;
    s += A[ia] * B[ib];
  }
  C[i * n + j] = s;
})");
  EXPECT_EQ(R.Summary, "inlined the index ia, ib");
  EXPECT_NE(R.Text.find("s += A[(i * n + k)] * B[((long)(k * n + j))];"), std::string::npos)
      << R.Text;
  EXPECT_EQ(R.Text.find("int ia"), std::string::npos) << R.Text;
}

TEST(IndexInlining, LocalsUsedOtherwiseOrChangedStay) {
  Result R = run(inlineIndexLocals, R"(
__global__ void g(const float *A, float *C, int n) {
  float s = 0;
  int off = 0;
  for (int k = 0; k < n; k++) {
    int ia = k * n;
    int ib = off + k;
    off += 2;
    int ic = A[k];
    s += A[ia] * ia + A[ib] + A[ic];
  }
  C[0] = s;
})");
  EXPECT_EQ(R.Summary, "");
  EXPECT_EQ(R.Error, "");
}

// A name the initializer reads is declared again where the index is used.
TEST(IndexInlining, HiddenNamesStay) {
  Result R = run(inlineIndexLocals, R"(
__global__ void g(const float *A, float *C, int n, int i) {
  for (int k = 0; k < n; k++) {
    int ia = i * n + k;
    {
      int i = 0;
      C[i] = A[ia];
    }
  }
})");
  EXPECT_EQ(R.Summary, "");
}

// geometry-aliases

TEST(GeometryAliases, NamedGeometryBecomesTheBuiltins) {
  Result R = run(inlineGeometryAliases, R"(
__global__ void g(const float *A, float *C, int n) {
  int bx = blockIdx.x, by = blockIdx.y;
  const unsigned tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = by * blockDim.y + ty;
  int col = bx * blockDim.x + tx;
  if (ty - 1 < 0 && row < n && col < n)
    C[row * n + col] = A[row * n + col];
})");
  EXPECT_EQ(R.Summary, "inlined the thread geometry bx, by, tx, ty");
  EXPECT_EQ(R.Error, "");
  // int aliases keep their signedness (ty - 1 < 0 is true in row 0); the
  // unsigned one needs no cast.
  EXPECT_NE(R.Text.find("int row = ((int)blockIdx.y) * blockDim.y + ((int)threadIdx.y);"),
            std::string::npos)
      << R.Text;
  EXPECT_NE(R.Text.find("int col = ((int)blockIdx.x) * blockDim.x + threadIdx.x;"),
            std::string::npos)
      << R.Text;
  EXPECT_NE(R.Text.find("if (((int)threadIdx.y) - 1 < 0"), std::string::npos) << R.Text;
  EXPECT_EQ(R.Text.find("bx ="), std::string::npos) << R.Text;
}

// An alias that changes, or whose address or a reference escapes, or that
// shares a declaration with something else, stays as written.
TEST(GeometryAliases, ChangedOrEscapingAliasesStay) {
  Result R = run(inlineGeometryAliases, R"(
__device__ void use(int *p);
__global__ void g(float *C, int n) {
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tz = threadIdx.z, k = n;
  int bx = blockIdx.x;
  int &r = bx;
  tx += 1;
  use(&ty);
  C[tx + ty + tz + k + r] = 0;
})");
  EXPECT_EQ(R.Summary, "");
  EXPECT_EQ(R.Error, "");
}

// loop-invariant-hoisting

TEST(LoopInvariantHoisting, InvariantDeclarationsLeaveTheLoop) {
  Result R = run(hoistLoopInvariants, R"(
__global__ void g(const float *A, float *C, int n, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; k++) {
    int base = i * n;
    float scale = alpha * 2.0f;
    float half = scale / 2;
    int step = k * 2;
    int q = n / 3;
    s += scale * A[base + k] + half + step + q;
  }
  C[i] = s;
})");
  EXPECT_EQ(R.Summary, "hoisted base, scale, half out of the loop");
  EXPECT_NE(R.Text.find("float s = 0; int base = i * n; float scale = alpha * 2.0f; "
                        "float half = scale / 2; for (int k = 0; k < n; k++) { int step"),
            std::string::npos)
      << R.Text;
  // An integer division could fault where the loop would not have run.
  EXPECT_NE(R.Text.find("{ int step = k * 2; int q = n / 3;"), std::string::npos) << R.Text;
}

TEST(LoopInvariantHoisting, LoopUnderAnIfGetsABlock) {
  Result R = run(hoistLoopInvariants, R"(
__global__ void g(const float *A, float *C, int n, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < n; k++) {
      float a2 = alpha * alpha;
      C[i] += a2 * A[k];
    }
})");
  EXPECT_NE(R.Text.find("if (i < n) { float a2 = alpha * alpha; for (int k = 0; k < n; k++) {"
                        " C[i] += a2 * A[k]; } }"),
            std::string::npos)
      << R.Text;
}

TEST(LoopInvariantHoisting, NamesDeclaredTwiceAndChangedValuesStay) {
  Result R = run(hoistLoopInvariants, R"(
__global__ void g(const float *A, float *C, int n, float alpha) {
  float s = 0;
  for (int k = 0; k < n; k++) {
    float a = alpha;
    s += a * A[k];
  }
  for (int k = 0; k < n; k++) {
    float a = alpha;
    float b = s;
    float c = alpha;
    c += 1;
    s += a + b + c;
  }
  C[0] = s;
})");
  EXPECT_EQ(R.Summary, "");
}

// promoteAccumulators (scalar replacement as a normalization)

TEST(PromoteAccumulators, BetaPrologueBecomesTheStart) {
  Result R = run(promoteAccumulators, R"(
__global__ void g(const float *A, const float *B, float *C, int n, float alpha, float beta) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) {
    C[i * n + j] *= beta;
    for (int k = 0; k < n; k++)
      C[i * n + j] += alpha * A[i * n + k] * B[k * n + j];
  }
})",
                 /*NoAlias=*/true);
  EXPECT_EQ(R.Summary, "scalar-replaced C[i * n + j]");
  EXPECT_NE(R.Text.find("if (i < n && j < n) { float kopt_s0 = (C[i * n + j]) * (beta); "
                        "for (int k = 0; k < n; k++) kopt_s0 += alpha * A[i * n + k] * "
                        "B[k * n + j]; C[i * n + j] = kopt_s0; }"),
            std::string::npos)
      << R.Text;
}

// Without a store before it the loop may not run: the location is touched
// only where it does.
TEST(PromoteAccumulators, WithoutPrologueTheFirstTestGuards) {
  Result R = run(promoteAccumulators, R"(
__global__ void g(const float *__restrict__ A, float *__restrict__ y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 1; j <= m; j++)
      y[i] = y[i] + A[i * m + j];
})");
  EXPECT_NE(R.Text.find("if (i < n) { const bool kopt_run = ((1) <= m); float kopt_s0 = kopt_run "
                        "? y[i] : float{}; for (int j = 1; j <= m; j++) kopt_s0 = kopt_s0 + "
                        "A[i * m + j]; if (kopt_run) y[i] = kopt_s0; }"),
            std::string::npos)
      << R.Text;
}

TEST(PromoteAccumulators, TwoDimensionalAccumulator) {
  Result R = run(promoteAccumulators, R"(
__global__ void g(const float (*A)[64], const float (*B)[64], float (*C)[64], float beta) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 64 && j < 64) {
    C[i][j] = beta * C[i][j];
    for (int k = 0; k < 64; ++k)
      C[i][j] += A[i][k] * B[k][j];
  }
})",
                 /*NoAlias=*/true);
  EXPECT_EQ(R.Summary, "scalar-replaced C[i][j]");
  EXPECT_NE(R.Text.find("float kopt_s0 = beta * C[i][j]; for (int k = 0; k < 64; ++k) kopt_s0 "
                        "+= A[i][k] * B[k][j]; C[i][j] = kopt_s0;"),
            std::string::npos)
      << R.Text;
}

// Two accumulators; the second one's start reads the first: it stays a store.
TEST(PromoteAccumulators, StartReadingAnEarlierLocationStaysAStore) {
  Result R = run(promoteAccumulators, R"(
__global__ void g(const float *A, float *s, float *t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = 0;
  t[i] = s[i] + 1;
  for (int j = 0; j < n; j++) {
    s[i] += A[j];
    t[i] += A[j] * A[j];
  }
})",
                 /*NoAlias=*/true);
  EXPECT_EQ(R.Summary, "scalar-replaced s[i], t[i]");
  EXPECT_NE(R.Text.find("s[i] = 0; const bool kopt_run = ((0) < n); float kopt_s0 = kopt_run ? "
                        "s[i] : float{}; float kopt_s1 = s[i] + 1; for"),
            std::string::npos)
      << R.Text;
  EXPECT_NE(R.Text.find("if (kopt_run) s[i] = kopt_s0; t[i] = kopt_s1;"), std::string::npos)
      << R.Text;
}

TEST(PromoteAccumulators, RefusesWhereAnotherPointerMayReachIt) {
  const char *Code = R"(
__global__ void g(const float *A, float *C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; k++)
    C[i] += A[k];
})";
  Result R = run(promoteAccumulators, Code);
  EXPECT_NE(R.Error.find("line 9:3: 'C' may alias another pointer (no noalias clause, not "
                         "__restrict__)"),
            std::string::npos)
      << R.Error;
  EXPECT_EQ(run(promoteAccumulators, Code, /*NoAlias=*/true).Summary, "scalar-replaced C[i]");
}

TEST(PromoteAccumulators, RefusesOtherIndicesAndUnknownPointers) {
  Result Other = run(promoteAccumulators, R"(
__global__ void g(const float *A, float *C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; k++)
    C[i] += A[k] * C[i + 1];
})",
                     true);
  EXPECT_NE(Other.Error.find("'C' is also accessed at another index"), std::string::npos)
      << Other.Error;
  Result Unknown = run(promoteAccumulators, R"(
__device__ float *table;
__global__ void g(const float *A, float *C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; k++)
    C[i] += A[k] * table[k];
})",
                       true);
  EXPECT_NE(Unknown.Error.find("through a pointer whose origin is unknown"), std::string::npos)
      << Unknown.Error;
}

// A loop with no global location written in every iteration is no refusal.
TEST(PromoteAccumulators, NothingToKeepIsNoRefusal) {
  Result R = run(promoteAccumulators, R"(
__global__ void g(const float *A, float *C, int n) {
  float s = 0;
  for (int k = 0; k < n; k++)
    s += A[k];
  C[0] = s;
})");
  EXPECT_EQ(R.Summary, "");
  EXPECT_EQ(R.Error, "");
}

} // namespace
