// The skills engine's planner (agents/StepPlanner.h) through optimizeKernel,
// with the real transforms and the shipped skills, and a fake evaluator whose
// verdicts depend on the variant's code: which step is evaluated first on a
// memory-bound kernel and on matmul-like ones, the screen-then-confirm path,
// and experience from an earlier kernel with similar facts reordering the
// next kernel's transforms and parameter points.
#include "agents/KernelOptimizer.h"
#include "test/fuzz/PragmaMutator.h"
#include "test/unit/agents/RuleEvaluator.h"
#include "test/unit/common/SnippetKernel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace kopt;
using namespace kopt::agents;
using evaluator::Verdict;

namespace {

// Memory-bound: a stream, one output a thread.
const char *const Stream = R"(
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 67108864, a = 2, b = 3) buffers(x[n] in, z[n] in, y[n] out) noalias
__global__ void stream(int n, float a, float b, const float *x, const float *z, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + b * z[i];
}
)";

// A matrix-vector product (k planes of x weighted by w), one output a thread.
const char *const Weighted = R"(
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 4194304, k = 8) buffers(x[n * k] in, w[k] in, y[n] out) noalias
__global__ void weighted(int n, int k, const float *x, const float *w, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0;
    for (int j = 0; j < k; ++j)
      acc += w[j] * x[j * n + i];
    y[i] = acc;
  }
}
)";

// The same kernel written by someone else: other names, same facts.
const char *const Blend = R"(
#pragma kopt optimize launch(grid: (count + 255) / 256; block: 256) args(count = 4194304, planes = 8) buffers(src[count * planes] in, coef[planes] in, dst[count] out) noalias
__global__ void blend(int count, int planes, const float *src, const float *coef, float *dst) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count) {
    float sum = 0;
    for (int p = 0; p < planes; ++p)
      sum += coef[p] * src[p * count + t];
    dst[t] = sum;
  }
}
)";

const char *const Matmul = R"(
#pragma kopt optimize launch(grid: (N + 15) / 16, (M + 15) / 16; block: 16, 16) args(M = 1024, N = 1024, K = 1024) buffers(A[M * K] in, B[K * N] in, C[M * N] out) noalias
__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
)";

// The textbook spelling: the accumulator lives in global memory.
const char *const Textbook = R"(
#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) args(n = 1024) buffers(A[n * n] in, B[n * n] in, C[n * n] inout) noalias
__global__ void gemm(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n)
    for (int k = 0; k < n; k++)
      C[i * n + j] += A[i * n + k] * B[k * n + j];
}
)";

// The snippet parse, with what CUDA's headers would declare for the code the
// transforms write (shared memory, barriers, read-only loads).
std::vector<std::string> clangArgs() {
  std::vector<std::string> Args = fuzz::snippetClangArgs();
  Args.push_back("-D__shared__=__attribute__((shared))");
  Args.push_back("-D__syncthreads()=((void)0)");
  Args.push_back("-D__ldg(p)=(*(p))");
  Args.push_back("-D__launch_bounds__(...)=__attribute__((launch_bounds(__VA_ARGS__)))");
  Args.push_back("-include");
  Args.push_back(KOPT_UNIT_TEST_DIR "/agents/CudaVectorTypes.h");
  // gridDim for variants that add a grid-stride loop (the prelude's builtins
  // reach a unit only where the original kernel uses them).
  Args.push_back("-DgridDim=blockDim");
  return Args;
}

// The snippet arguments with gridDim itself, for a kernel that reads it (the
// variants of a kernel that does keep its declaration), and the shuffle the
// cooperative transforms add.
std::vector<std::string> gridDimArgs() {
  std::vector<std::string> Args = clangArgs();
  llvm::erase_if(Args, [](const std::string &A) { return A == "-DgridDim=blockDim"; });
  Args.push_back("-D__shfl_xor_sync(m,v,o)=(v)"); // For row-cooperative's block reduction.
  return Args;
}

frontend::KernelSummary kernel(const char *Code) {
  return snippets::snippetKernel(Code, clangArgs());
}

// The facts of a memory-bound run: DRAM busy, SMs idle, the GPU full.
memory::ProfileMetrics memoryBound() {
  return {{"dram_throughput_pct", 86},    {"sm_throughput_pct", 18},
          {"achieved_occupancy_pct", 82}, {"parallelism", 15.9},
          {"arithmetic_intensity", 0.24}, {"block_size", 256},
          {"grid_size", 16384},           {"registers", 24}};
}
memory::ProfileMetrics computeBound() {
  return {{"dram_throughput_pct", 12},
          {"sm_throughput_pct", 71},
          {"achieved_occupancy_pct", 90},
          {"parallelism", 15.9},
          {"arithmetic_intensity", 45},
          {"block_size", 256},
          {"grid_size", 4096},
          {"registers", 32}};
}

std::shared_ptr<const memory::SkillLibrary> shippedSkills() {
  static std::shared_ptr<const memory::SkillLibrary> Library = [] {
    auto L = memory::SkillLibrary::loadDirectory(KOPT_SKILLS_DIR);
    EXPECT_TRUE(bool(L)) << (L ? "" : llvm::toString(L.takeError()));
    return L ? std::make_shared<const memory::SkillLibrary>(std::move(*L)) : nullptr;
  }();
  return Library;
}

struct PlannedRun {
  frontend::KernelSummary K;
  fakes::RuleEvaluator Eval;
  OptimizeRequest R;
  memory::ExperienceStore Experience = memory::ExperienceStore::inMemory();
  memory::ProfileMetrics Metrics;
  std::shared_ptr<const memory::SkillLibrary> Skills = shippedSkills();

  PlannedRun(const char *Code, memory::ProfileMetrics M,
             std::vector<std::string> Args = clangArgs())
      : K(snippets::snippetKernel(Code, Args)), Metrics(std::move(M)) {
    R.Kernel = &K;
    R.ClangArgs = std::move(Args);
    R.Budget.Seconds = 600;
    R.Budget.Evaluations = 6;
    R.Plan = [this](const evaluator::Baseline &B) {
      return PlanInputs{Skills, Metrics, &Experience, B.Device.Name};
    };
  }
  OptimizeResult run() {
    auto Result = optimizeKernel(R, Eval);
    if (!Result) {
      ADD_FAILURE() << llvm::toString(Result.takeError());
      return {};
    }
    return std::move(*Result);
  }
  // What this run teaches the experience store, as the driver records it.
  void teach(memory::ExperienceStore &Store, const OptimizeResult &O) const {
    memory::FactVector Facts = memory::factVector(memory::factsFor(K.Features, Metrics));
    ASSERT_FALSE(bool(Store.recordAll(
        observationsFrom(O, Facts, memory::kernelKind(K.Features), /*VerifiedOnly=*/false))));
  }
};

// The last step of each evaluated attempt, in order.
std::vector<std::string> evaluatedSteps(const OptimizeResult &O) {
  std::vector<std::string> Out;
  for (const Attempt &A : O.Trajectory)
    if (A.Evaluated)
      Out.push_back(A.Steps.back());
  return Out;
}

std::string joined(const std::vector<std::string> &Steps) {
  std::string Text;
  for (const std::string &S : Steps)
    Text += S + "; ";
  return Text;
}

bool startsWith(const std::string &Text, const std::string &Prefix) {
  return llvm::StringRef(Text).starts_with(Prefix);
}

// The index of the first step of Transform, or the size where there is none.
size_t firstOf(const std::vector<std::string> &Steps, const std::string &Transform) {
  for (size_t I = 0; I < Steps.size(); ++I)
    if (startsWith(Steps[I], Transform + ":") || Steps[I] == Transform)
      return I;
  return Steps.size();
}

TEST(KernelPlanner, MemoryBoundKernelTriesRestrictFirst) {
  PlannedRun T(Stream, memoryBound());
  T.Eval.Rules = {{"__restrict__", Verdict::Faster, 1.9}};
  OptimizeResult O = T.run();
  std::vector<std::string> Steps = evaluatedSteps(O);
  ASSERT_FALSE(Steps.empty());
  EXPECT_TRUE(startsWith(Steps[0], "restrict-readonly")) << joined(Steps);
  // No low-yield step (unroll, launch bounds, block size) came before it.
  for (const char *Low : {"unroll", "launch-bounds", "block-size"})
    EXPECT_GT(firstOf(Steps, Low), 0u) << joined(Steps);
  // Screened promising, then confirmed once: the best is a confirmed one.
  ASSERT_TRUE(O.Best.has_value());
  EXPECT_EQ(O.BestSteps.size(), 1u);
  EXPECT_TRUE(startsWith(O.BestSteps[0], "restrict-readonly"));
  EXPECT_EQ(T.Eval.Confirms, 1u);
  EXPECT_EQ(T.Eval.Screens, Steps.size());
  // Each evaluation says how long it took (screen and confirmation together).
  EXPECT_DOUBLE_EQ(O.Trajectory[0].EvalSeconds, 5);
  for (const Attempt &A : O.Trajectory) {
    if (A.Evaluated) {
      EXPECT_GT(A.EvalSeconds, 0) << A.Steps.back();
    }
  }
}

TEST(KernelPlanner, MatmulGetsItsIdiomTransformWithinTwoEvaluations) {
  PlannedRun T(Matmul, computeBound());
  OptimizeResult O = T.run();
  std::vector<std::string> Steps = evaluatedSteps(O);
  ASSERT_GE(Steps.size(), 2u);
  EXPECT_TRUE(startsWith(Steps[0], "register-blocking") || startsWith(Steps[0], "smem-tiling") ||
              startsWith(Steps[1], "register-blocking") || startsWith(Steps[1], "smem-tiling"))
      << joined(Steps);
}

// register-blocking is probed when the product's node is added (scalar
// replacement could enable it); that probe is its first candidate, and the
// search evaluates what the probe made instead of applying it again.
TEST(KernelPlanner, AProbedStepIsAppliedOnce) {
  PlannedRun T(R"(
#define N 256
__global__ void gemm(float alpha, float beta, const float *__restrict__ a,
                     const float *__restrict__ b, float *__restrict__ c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < N) && (j < N)) {
    c[i * N + j] *= beta;
    for (int k = 0; k < N; k++)
      c[i * N + j] += alpha * a[i * N + k] * b[k * N + j];
  }
}
)",
               computeBound());
  T.R.Budget.Evaluations = 1;
  T.Eval.Rules = {{"kopt_tile", Verdict::Faster, 6.0}};
  OptimizeResult O = T.run();
  ASSERT_EQ(evaluatedSteps(O).size(), 1u);
  ASSERT_TRUE(startsWith(evaluatedSteps(O)[0], "register-blocking")) << joined(evaluatedSteps(O));
  // The probes of register-blocking and smem-tiling, nothing more.
  EXPECT_EQ(O.Applies, 2u);
}

TEST(KernelPlanner, TextbookMatmulReachesTheIdiomEarly) {
  // An accumulator in global memory: register-blocking and smem-tiling keep it
  // in registers themselves (their normalizing passes), so an idiom transform
  // comes within the first three evaluations, after at most the cheap steps
  // that also fit (restrict, scalar replacement), never after low-yield ones.
  PlannedRun T(Textbook, computeBound());
  T.Eval.Rules = {{"kopt_tile", Verdict::Faster, 6.0},
                  {"kopt_s0", Verdict::Faster, 2.5},
                  {"__restrict__", Verdict::Faster, 2.5}};
  OptimizeResult O = T.run();
  std::vector<std::string> Steps = evaluatedSteps(O);
  ASSERT_GE(Steps.size(), 3u);
  size_t Idiom = std::min(firstOf(Steps, "register-blocking"), firstOf(Steps, "smem-tiling"));
  EXPECT_LT(Idiom, 3u) << joined(Steps);
  for (size_t I = 0; I < Idiom; ++I)
    EXPECT_TRUE(startsWith(Steps[I], "scalar-replacement") ||
                startsWith(Steps[I], "restrict-readonly"))
        << joined(Steps);
  ASSERT_TRUE(O.Best.has_value());
  EXPECT_NEAR(O.BestOutcome.Speedup, 6.0, 1e-9);
}

// The search on a product whose tiled variants (register-blocking,
// smem-tiling) run 6x faster: one of them is among the first three
// evaluations, and wins.
void expectTheIdiomEarly(const char *Code) {
  PlannedRun T(Code, computeBound());
  T.Eval.Rules = {{"kopt_tile", Verdict::Faster, 6.0}};
  OptimizeResult O = T.run();
  std::vector<std::string> Steps = evaluatedSteps(O);
  size_t Idiom = std::min(firstOf(Steps, "register-blocking"), firstOf(Steps, "smem-tiling"));
  ASSERT_FALSE(Steps.empty()) << O.Trajectory.size();
  EXPECT_LT(Idiom, 3u) << joined(Steps);
  ASSERT_TRUE(O.Best.has_value());
  EXPECT_NEAR(O.BestOutcome.Speedup, 6.0, 1e-9);
}

// A product whose row index is written for one block size (TILE_WIDTH), its
// column index with blockDim: the search starts from it read under the launch
// contract (block-dim-constants), so register-blocking fits at once.
TEST(KernelPlanner, AConstantBlockSizeStillReachesTheIdiom) {
  expectTheIdiomEarly(R"(
#define TILE_WIDTH 16
#pragma kopt optimize launch(grid: 128, 128; block: TILE_WIDTH, TILE_WIDTH) args(Width = 2048) buffers(M[Width * Width] in, N[Width * Width] in, P[Width * Width] out) noalias
__global__ void MatrixMulTile(const float *M, const float *N, float *P, int Width) {
  int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k)
      Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
  }
}
)");
}

// The same product without a bounds check, on a grid that covers the matrix
// exactly: the search starts from it with the launch's extent checked
// (launch-extent-guards), so register-blocking fits at once.
TEST(KernelPlanner, AnUncheckedExactGridStillReachesTheIdiom) {
  expectTheIdiomEarly(R"(
#define TILE_WIDTH 16
#pragma kopt optimize launch(grid: Width / TILE_WIDTH, Width / TILE_WIDTH; block: TILE_WIDTH, TILE_WIDTH) args(Width = 2048) buffers(M[Width * Width] in, N[Width * Width] in, P[Width * Width] out) noalias
__global__ void MatrixMulExact(const float *M, const float *N, float *P, int Width) {
  int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  float Pvalue = 0;
  for (int k = 0; k < Width; ++k)
    Pvalue += M[Row * Width + k] * N[k * Width + Col];
  P[Row * Width + Col] = Pvalue;
}
)");
}

// A mat-vec written to run on any grid: row-cooperative and inner-loop-parallel
// do not fit a grid-stride loop, and grid-stride-cover makes them fit. The
// search must chain them within a few evaluations.
TEST(KernelPlanner, AGridStrideRowLoopReachesTheCooperativeTransforms) {
  PlannedRun T(R"(
#pragma kopt optimize launch(grid: 264; block: 256) args(n = 8192) buffers(A[n * n] in, x[n] in, y[n] out)
__global__ void gemv(int n, const float *__restrict__ A, const float *__restrict__ x,
                     float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = 0.0f;
    for (int k = 0; k < n; k++)
      s += A[i * n + k] * x[k];
    y[i] = s;
  }
}
)",
               memoryBound(), gridDimArgs());
  T.R.Budget.Evaluations = 8;
  T.Eval.Rules = {{"__shfl_xor_sync", Verdict::Faster, 5.0}};
  // The launch as the pragma gives it: the covering grid is computed from n.
  T.R.Work.Launch.Grid = {264, 1, 1};
  T.R.Work.Launch.Block = {256, 1, 1};
  T.R.Work.Args = {
      evaluator::KernelArg{"n", evaluator::ScalarArg{evaluator::ScalarType::I32, 8192}}};
  OptimizeResult O = T.run();
  ASSERT_TRUE(O.Best.has_value()) << joined(evaluatedSteps(O));
  EXPECT_NEAR(O.BestOutcome.Speedup, 5.0, 1e-9);
  ASSERT_GE(O.BestSteps.size(), 2u);
  EXPECT_EQ(O.BestSteps[0], "grid-stride-cover");
  EXPECT_TRUE(startsWith(O.BestSteps[1], "row-cooperative") ||
              startsWith(O.BestSteps[1], "inner-loop-parallel"))
      << joined(O.BestSteps);
}

// A block a row reading and writing it in block-stride loops (a normalization
// layer): bandwidth-bound, its row passes reach vectorize-strided within three
// evaluations.
TEST(KernelPlanner, ABlockStrideRowPassReachesStridedVectorAccesses) {
  PlannedRun T(R"(
#pragma kopt optimize launch(grid: rows; block: 256) args(rows = 4096, cols = 2048) \
    buffers(x[rows * cols] in, y[rows * cols] out)
__global__ void center_rows(const float *x, float *y, int rows, int cols) {
  __shared__ float part[256];
  const float *xr = x + (long long)blockIdx.x * cols;
  float *yr = y + (long long)blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += xr[c];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h)
      part[threadIdx.x] += part[threadIdx.x + h];
    __syncthreads();
  }
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    yr[c] = xr[c] - part[0] / cols;
}
)",
               memoryBound());
  T.R.Budget.Evaluations = 3;
  T.Eval.Rules = {{"kopt vectorize-strided", Verdict::Faster, 1.4}};
  OptimizeResult O = T.run();
  ASSERT_TRUE(O.Best.has_value()) << joined(evaluatedSteps(O));
  EXPECT_NE(std::find(O.BestSteps.begin(), O.BestSteps.end(), "vectorize-strided"),
            O.BestSteps.end())
      << joined(O.BestSteps);
}

TEST(KernelPlanner, ARuntimeExponentInAnAllPairsLoopReachesPowSpecialize) {
  PlannedRun T(R"(
__device__ float powf(float, float);
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 16, nst = 1024, power = 2.0f) \
    buffers(px[n] in, sx[nst] in, sv[nst] in, out[n] out)
__global__ void idw(int n, int nst, float power, const float *px, const float *sx,
                    const float *sv, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float num = 0.0f, den = 0.0f;
  for (int s = 0; s < nst; s++) {
    float d = px[i] - sx[s];
    float w = 1.0f / powf(d * d, 0.5f * power);
    num += w * sv[s];
    den += w;
  }
  out[i] = num / den;
}
)",
               computeBound());
  T.R.Budget.Evaluations = 3;
  T.Eval.Rules = {{"kopt pow-specialize", Verdict::Faster, 1.6}};
  OptimizeResult O = T.run();
  ASSERT_TRUE(O.Best.has_value()) << joined(evaluatedSteps(O));
  EXPECT_NE(std::find(O.BestSteps.begin(), O.BestSteps.end(), "pow-specialize"), O.BestSteps.end())
      << joined(O.BestSteps);
}

// A Thomas solve, one thread a row: few threads, each waiting on the load of
// what its previous iteration stored. The search must reach the transform that
// carries those values in registers.
TEST(KernelPlanner, ARecurrenceThroughMemoryReachesCarriedScalarReplacement) {
  PlannedRun T(R"(
#pragma kopt optimize launch(grid: (ny + 63) / 64; block: 64) args(nx = 1024, ny = 1024, r = 1.0f) \
    buffers(rhs[nx * ny] in, cp[nx * ny] out, dp[nx * ny] out)
__global__ void thomasRows(const float *rhs, float *cp, float *dp, int nx, int ny, float r) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= ny)
    return;
  long row = (long)j * nx;
  float a = -0.5f * r, b = 1.0f + r, c = -0.5f * r;
  cp[row] = c / b;
  dp[row] = rhs[row] / b;
  for (int i = 1; i < nx; i++) {
    float m = b - a * cp[row + i - 1];
    cp[row + i] = c / m;
    dp[row + i] = (rhs[row + i] - a * dp[row + i - 1]) / m;
  }
}
)",
               computeBound());
  T.R.Budget.Evaluations = 3;
  T.Eval.Rules = {{"kopt_carried0", Verdict::Faster, 1.2}};
  OptimizeResult O = T.run();
  ASSERT_TRUE(O.Best.has_value()) << joined(evaluatedSteps(O));
  EXPECT_NE(std::find(O.BestSteps.begin(), O.BestSteps.end(), "carried-scalar-replacement"),
            O.BestSteps.end())
      << joined(O.BestSteps);
}

// A BFS level, one thread a vertex: every vertex it labels sets the same flag,
// and the launch waits on those stores (DRAM and SMs nearly idle). The search
// must reach the transform that stores the flag once a thread.
TEST(KernelPlanner, AFlagRaisedInALoopReachesDeferredFlagStore) {
  PlannedRun T(R"(
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, depth = 2) \
    buffers(offsets[n + 1] in range(0, 8), targets[8 * n] in range(0, n), dist[n] inout, more[1] inout)
__global__ void expand(const int *offsets, const int *targets, int *dist, int *more, int n, int depth) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && dist[v] == depth)
    for (int e = offsets[v]; e < offsets[v + 1]; ++e)
      if (dist[targets[e]] == -1) {
        dist[targets[e]] = depth + 1;
        more[0] = 1;
      }
}
)",
               {{"dram_throughput_pct", 4},
                {"sm_throughput_pct", 4},
                {"achieved_occupancy_pct", 80},
                {"parallelism", 15.9},
                {"arithmetic_intensity", 0.1},
                {"block_size", 256},
                {"grid_size", 4096},
                {"registers", 20}});
  T.R.Budget.Evaluations = 3;
  T.Eval.Rules = {{"kopt_flag0", Verdict::Faster, 2.0}};
  OptimizeResult O = T.run();
  ASSERT_TRUE(O.Best.has_value()) << joined(evaluatedSteps(O));
  EXPECT_NE(std::find(O.BestSteps.begin(), O.BestSteps.end(), "deferred-flag-store"),
            O.BestSteps.end())
      << joined(O.BestSteps);
}

// The shipped library without the skills whose transforms add threads: a test of
// experience alone, on a kernel that already fills the GPU.
std::shared_ptr<const memory::SkillLibrary> withoutParallelismSkills() {
  std::vector<memory::Skill> Skills;
  std::set<std::string> Left;
  for (const memory::Skill &S : shippedSkills()->skills())
    if (S.Category != "parallelism") {
      Skills.push_back(S);
      Left.insert(S.Id);
    }
  for (memory::Skill &S : Skills) // Nothing left enables a skill taken out.
    llvm::erase_if(S.Enables, [&](const std::string &Id) { return !Left.count(Id); });
  auto L = memory::SkillLibrary::fromSkills(std::move(Skills));
  EXPECT_TRUE(bool(L)) << (L ? "" : llvm::toString(L.takeError()));
  return L ? std::make_shared<const memory::SkillLibrary>(std::move(*L)) : nullptr;
}

TEST(KernelPlanner, ExperienceFromASimilarKernelReordersTheNext) {
  auto Skills = withoutParallelismSkills();
  // Without experience: where unroll comes in the second kernel, and with
  // which point.
  PlannedRun Fresh(Blend, memoryBound());
  Fresh.Skills = Skills;
  Fresh.R.Budget.Evaluations = 12;
  std::vector<std::string> Before = evaluatedSteps(Fresh.run());
  size_t UnrollBefore = firstOf(Before, "unroll");
  ASSERT_LT(UnrollBefore, Before.size()) << joined(Before);
  EXPECT_TRUE(startsWith(Before[UnrollBefore], "unroll:factor=4")) << joined(Before);

  // An earlier kernel (another name, the same facts) where unrolling by 8 won
  // and restrict did not.
  memory::ExperienceStore Store = memory::ExperienceStore::inMemory();
  for (int Build = 0; Build < 2; ++Build) {
    PlannedRun First(Weighted, memoryBound());
    First.Skills = Skills;
    First.R.Budget.Evaluations = 12;
    First.Eval.Rules = {{"#pragma unroll 8", Verdict::Faster, 1.8}};
    OptimizeResult O = First.run();
    First.teach(Store, O);
  }
  PlannedRun Next(Blend, memoryBound());
  Next.R.Budget.Evaluations = 12;
  Next.R.Plan = [&](const evaluator::Baseline &B) {
    return PlanInputs{Skills, Next.Metrics, &Store, B.Device.Name};
  };
  std::vector<std::string> After = evaluatedSteps(Next.run());
  size_t UnrollAfter = firstOf(After, "unroll");
  ASSERT_LT(UnrollAfter, After.size()) << joined(After);
  // Unroll comes no later than before (restrict's strong prior on DRAM-bound
  // code may still lead after two builds without a win).
  EXPECT_LE(UnrollAfter, UnrollBefore) << joined(Before) << "\n" << joined(After);
  // And the point that won comes first among unroll's.
  EXPECT_TRUE(startsWith(After[UnrollAfter], "unroll:factor=8")) << joined(After);

  // A kernel unlike it (a matrix product) is not moved by that experience.
  PlannedRun Other(Matmul, computeBound());
  Other.R.Plan = [&](const evaluator::Baseline &B) {
    return PlanInputs{shippedSkills(), Other.Metrics, &Store, B.Device.Name};
  };
  std::vector<std::string> Unlike = evaluatedSteps(Other.run());
  EXPECT_GT(firstOf(Unlike, "unroll"), 1u) << joined(Unlike);
}

// The shipped library with one skill's yield model replaced: what a new or
// edited skill file does to the plan, with no change to the planner's code.
std::shared_ptr<const memory::SkillLibrary>
withYieldModel(const std::string &Id, const std::string &When, double Speedup, double Likelihood) {
  std::vector<memory::Skill> Skills = shippedSkills()->skills();
  for (memory::Skill &S : Skills)
    if (S.Id == Id) {
      auto Case = memory::Predicate::parse(When);
      EXPECT_TRUE(bool(Case)) << (Case ? "" : llvm::toString(Case.takeError()));
      S.Expect = {{Case ? std::move(*Case) : memory::Predicate::always(), Speedup, Likelihood}};
    }
  auto L = memory::SkillLibrary::fromSkills(std::move(Skills));
  EXPECT_TRUE(bool(L)) << (L ? "" : llvm::toString(L.takeError()));
  return L ? std::make_shared<const memory::SkillLibrary>(std::move(*L)) : nullptr;
}

TEST(KernelPlanner, TheOrderComesFromTheSkillFiles) {
  // block-size, low-yield as shipped, made to expect 4x on DRAM-bound code.
  auto Edited = withYieldModel("block-size", "dram_throughput_pct > 50", 4.0, 0.9);
  auto StepsWith = [&](memory::ProfileMetrics M) {
    PlannedRun T(Stream, std::move(M));
    T.R.Budget.Evaluations = 3;
    T.R.Plan = [&](const evaluator::Baseline &B) {
      return PlanInputs{Edited, T.Metrics, &T.Experience, B.Device.Name};
    };
    return evaluatedSteps(T.run());
  };
  std::vector<std::string> Bound = StepsWith(memoryBound());
  ASSERT_FALSE(Bound.empty());
  EXPECT_TRUE(startsWith(Bound[0], "block-size")) << joined(Bound);
  // The case reads the profile: where it does not hold, restrict leads again.
  std::vector<std::string> Compute = StepsWith(computeBound());
  ASSERT_FALSE(Compute.empty());
  EXPECT_TRUE(startsWith(Compute[0], "restrict-readonly")) << joined(Compute);
  EXPECT_GT(firstOf(Compute, "block-size"), 0u) << joined(Compute);
}

// A covariance matrix, one thread a column pair's row (PolyBench's covar):
// both inner-loop-parallel and loop-to-grid restructure it.
const char *const Columns = R"(
#pragma kopt optimize launch(grid: (m + 255) / 256; block: 256) args(m = 2048, n = 2048) buffers(data[n * m] in, symmat[m * m] out) noalias
__global__ void covar(int m, int n, const float *data, float *symmat) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m)
    for (int j2 = j1; j2 < m; j2++) {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
        s += data[i * m + j1] * data[i * m + j2];
      symmat[j1 * m + j2] = s;
    }
}
)";

TEST(KernelPlanner, ARestructuringThatCanBeatTheBestIsStillTried) {
  // inner-loop-parallel made the strongest prior, so it is tried first and
  // wins 30x; loop-to-grid on the original, whose wins are 20x by its skill
  // file, could still beat that and comes before polishing the 30x variant.
  PlannedRun T(Columns, computeBound());
  T.Skills = withYieldModel("inner-loop-parallel", "has_loops", 12.0, 0.95);
  T.R.Budget.Evaluations = 8;
  T.Eval.Rules = {{"kopt_lane", Verdict::Faster, 30.0},
                  {"gridDim.y * blockDim.y", Verdict::Faster, 400.0}};
  OptimizeResult O = T.run();
  std::vector<std::string> Steps = evaluatedSteps(O);
  ASSERT_FALSE(Steps.empty());
  EXPECT_TRUE(startsWith(Steps[0], "inner-loop-parallel")) << joined(Steps);
  EXPECT_LT(firstOf(Steps, "loop-to-grid"), Steps.size()) << joined(Steps);
  EXPECT_NEAR(O.BestOutcome.Speedup, 400.0, 1e-9) << joined(Steps);
}

TEST(KernelPlanner, SimilarityIsOnFactsNotNames) {
  frontend::KernelSummary A = kernel(Weighted), B = kernel(Blend), C = kernel(Stream);
  memory::FactVector FA = memory::factVector(memory::factsFor(A.Features, memoryBound()));
  memory::FactVector FB = memory::factVector(memory::factsFor(B.Features, memoryBound()));
  memory::FactVector FC = memory::factVector(memory::factsFor(C.Features, memoryBound()));
  EXPECT_NEAR(memory::similarity(FA, FB), 1.0, 1e-9);
  // A stream is not a matrix-vector product, whatever their profiles share.
  EXPECT_LT(memory::similarity(FA, FC), 0.05);
  // The same kernel under another profile is still close, but less so.
  memory::FactVector FA2 = memory::factVector(memory::factsFor(A.Features, computeBound()));
  double Profiled = memory::similarity(FA, FA2);
  EXPECT_GT(Profiled, memory::similarity(FA, FC));
  EXPECT_LT(Profiled, 0.5);
}

} // namespace

// With a recording, a variant that remaps the launch runs each recorded
// launch with the mapping applied to that launch's own grid and scalars.
TEST(KernelPlanner, RemappedLaunchIsMappedForEachRecordedLaunch) {
  PlannedRun T(Stream, memoryBound());
  T.R.Forced = {"block-size"};
  auto Launch = [](uint32_t Grid) {
    evaluator::LaunchGeometry G;
    G.Grid = {Grid, 1, 1};
    G.Block = {256, 1, 1};
    return G;
  };
  auto Scalar = [](double N) {
    return evaluator::KernelArg{"n", evaluator::ScalarArg{evaluator::ScalarType::I32, N}};
  };
  T.R.Work.Launch = Launch(262144);
  T.R.Work.Args = {Scalar(67108864)};
  T.R.Work.Recorded = {{0, 3, Launch(4), {Scalar(1000)}}, {1, 1, Launch(20), {Scalar(5000)}}};
  T.run();
  unsigned Remapped = 0;
  for (const evaluator::VariantLaunch &L : T.Eval.Launches) {
    if (L.Launch.Block[0] == 256) // The original's block: kept, or another transform's.
      continue;
    // block-size: the same threads in blocks of B.
    ++Remapped;
    uint32_t B = L.Launch.Block[0];
    EXPECT_EQ(L.Launch.Grid[0], 262144 * 256 / B);
    ASSERT_EQ(L.Recorded.size(), 2u);
    EXPECT_EQ(L.Recorded[0].Block, L.Launch.Block);
    EXPECT_EQ(L.Recorded[0].Grid[0], (4 * 256 + B - 1) / B);
    EXPECT_EQ(L.Recorded[1].Grid[0], (20 * 256 + B - 1) / B);
  }
  EXPECT_GT(Remapped, 0u) << "no block-size variant was evaluated";
}

// A kernel that looks like a product to the facts but that the blocked
// rewrite refuses (three products in one update: more operands than it
// stages): the planner values
// register-blocking and smem-tiling first, their probe refuses them, and no
// point of either is applied again on that variant. Each refused apply is a
// parse or more that a short budget cannot spare.
TEST(KernelPlanner, ATransformRefusedForTheCodeIsNotAppliedAgainAtOtherPoints) {
  PlannedRun T(R"(
#define N 256
#define M 128
__global__ void syr2k(const float *__restrict__ a, const float *__restrict__ b,
                      float *__restrict__ c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < N) && (j < N)) {
    c[i * N + j] *= 0.5f;
    for (int k = 0; k < M; k++)
      c[i * N + j] += a[i * M + k] * b[j * M + k] + b[i * M + k] * a[j * M + k] +
                      a[i * M + k] * a[j * M + k];
  }
}
)",
               computeBound());
  ASSERT_TRUE(memory::factsFor(T.K.Features, T.Metrics).get("matmul_like").value());
  OptimizeResult O = T.run();
  // The probes of register-blocking and smem-tiling, on the original and on
  // the scalar-replaced variant where that one was evaluated: nothing else.
  unsigned Nodes = 1;
  for (const Attempt &A : O.Trajectory)
    Nodes += A.Evaluated && A.Steps.size() == 1 && startsWith(A.Steps[0], "scalar-replacement");
  EXPECT_LE(O.UnfitSteps, 2 * Nodes) << joined(evaluatedSteps(O));
  EXPECT_GE(O.UnfitSteps, 2u);
  EXPECT_EQ(firstOf(evaluatedSteps(O), "register-blocking"), evaluatedSteps(O).size());
}

// restrict-readonly answers refusals for aliasing only: the runtime stride
// that keeps the cooperative transforms out of this kernel keeps them out of
// its restricted variants too, without a parse on each.
TEST(KernelPlanner, RestrictCarriesOverRefusalsOtherThanAliasing) {
  PlannedRun T(R"(
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(m = 4096, n = 4096, ld = 4096) buffers(b[m * ld] in, q[m] in, a[m * ld] out) noalias
__global__ void scale_columns(int m, int n, int ld, const float *b, const float *q, float *a) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    for (int i = 0; i < m; i++)
      a[i * ld + j] = b[i * ld + j] * q[i];
}
)",
               memoryBound());
  T.R.Budget.Evaluations = 8;
  T.Eval.Rules = {{"__ldg", Verdict::Faster, 1.6}, {"__restrict__", Verdict::Faster, 1.3}};
  OptimizeResult O = T.run();
  unsigned Restricted = 0;
  for (const Attempt &A : O.Trajectory)
    Restricted += A.Evaluated && A.Result == Verdict::Faster &&
                  startsWith(A.Steps.back(), "restrict-readonly");
  ASSERT_GE(Restricted, 1u) << joined(evaluatedSteps(O));
  unsigned Offered = 0;
  for (const auto &Tr : transform::allTransforms())
    Offered += Tr->offer(T.K, T.R.Policy).offered();
  EXPECT_LE(O.UnfitSteps, 2 * Offered) << joined(evaluatedSteps(O));
}

TEST(KernelPlanner, RefusalsCarryOverStepsThatKeepTheCode) {
  // The row-apart store with a runtime stride keeps the cooperative
  // transforms out; two unroll factors win. Their variants have the
  // original's loops and indices: what did not fit the original is not
  // applied to them again.
  PlannedRun T(R"(
__global__ void column_update(int m, int n, float *a, const float *q, const float *r) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    for (int i = 0; i < m; i++)
      a[i * n + j] -= q[i] * r[j];
}
)",
               memoryBound());
  T.R.Budget.Evaluations = 12;
  T.Eval.Rules = {{"#pragma unroll 8", Verdict::Faster, 1.6},
                  {"#pragma unroll", Verdict::Faster, 1.3}};
  OptimizeResult O = T.run();
  unsigned KeptCode = 0;
  for (const Attempt &A : O.Trajectory)
    KeptCode +=
        A.Evaluated && A.Result == Verdict::Faster &&
        (startsWith(A.Steps.back(), "unroll") || startsWith(A.Steps.back(), "launch-bounds"));
  ASSERT_GE(KeptCode, 1u) << joined(evaluatedSteps(O));
  // The original's refusals only, one or two applies a transform that does
  // not fit (18 here when each variant applied them again).
  unsigned OnOriginal = 0;
  for (const auto &Tr : transform::allTransforms())
    OnOriginal += Tr->offer(T.K, T.R.Policy).offered();
  EXPECT_LE(O.UnfitSteps, 2 * OnOriginal) << joined(evaluatedSteps(O));
}

// The chains run out with budget left (one point a transform, one step a
// chain): the search goes on with the points it held back, so a factor the
// planner ranks last is still tried.
TEST(KernelPlanner, HeldBackPointsAreTriedWhenTheChainsRunOut) {
  PlannedRun T(Weighted, memoryBound());
  T.R.Budget.PointsPerStep = 1;
  T.R.Budget.MaxDepth = 1;
  T.R.Budget.Evaluations = 60;
  T.Eval.Rules = {{"#pragma unroll 16", Verdict::Faster, 1.7}};
  OptimizeResult O = T.run();
  ASSERT_TRUE(O.Best.has_value()) << joined(evaluatedSteps(O));
  ASSERT_EQ(O.BestSteps.size(), 1u);
  EXPECT_EQ(O.BestSteps[0], "unroll:factor=16,loop=0");
  // Every transform's first point came before any held-back one.
  size_t Sixteen = firstOf(evaluatedSteps(O), "unroll:factor=16");
  std::set<std::string> Before;
  for (size_t I = 0; I < Sixteen; ++I)
    Before.insert(llvm::StringRef(evaluatedSteps(O)[I]).split(':').first.str());
  EXPECT_TRUE(Before.count("unroll")) << joined(evaluatedSteps(O));
  EXPECT_GE(Before.size(), 3u) << joined(evaluatedSteps(O));
}

// The best chain unrolls by 4, then restricts the pointers. Unrolling by 16
// wins only together with __restrict__, and restrict-readonly alone does not
// win: no chain the planner extends reaches the pair, but the best chain
// retuned (its first step at another point, the second replayed) does.
TEST(KernelPlanner, TheBestChainIsRetunedWhenTheChainsRunOut) {
  PlannedRun T(Weighted, memoryBound());
  T.R.Budget.PointsPerStep = 1;
  T.R.Budget.MaxDepth = 2;
  T.R.Budget.Evaluations = 80;
  T.Eval.Rules = {{"#pragma unroll 16", Verdict::Faster, 2.0, "", {"__restrict__"}},
                  {"#pragma unroll 4", Verdict::Faster, 1.5, "", {"__restrict__"}},
                  {"#pragma unroll 4", Verdict::Faster, 1.3},
                  {"#pragma unroll", Verdict::NotFaster, 1.0}};
  OptimizeResult O = T.run();
  ASSERT_EQ(O.BestSteps.size(), 2u) << joined(O.BestSteps) << " of " << joined(evaluatedSteps(O));
  EXPECT_EQ(O.BestSteps[0], "unroll:factor=16,loop=0");
  EXPECT_TRUE(startsWith(O.BestSteps[1], "restrict-readonly")) << joined(O.BestSteps);
  const Attempt *Retune = nullptr;
  for (const Attempt &A : O.Trajectory)
    if (A.Steps == O.BestSteps)
      Retune = &A;
  ASSERT_NE(Retune, nullptr);
  // Judged against the chain it retunes, and learned as the step it varied.
  EXPECT_EQ(Retune->Varied, "unroll:factor=16,loop=0");
  EXPECT_DOUBLE_EQ(Retune->ParentSpeedup, 1.5);
  memory::FactVector Facts = memory::factVector(memory::factsFor(T.K.Features, T.Metrics));
  std::vector<memory::Observation> Learned = observationsFrom(O, Facts, "kernel", false);
  EXPECT_TRUE(std::any_of(Learned.begin(), Learned.end(), [](const memory::Observation &Obs) {
    return Obs.Skill == "unroll" && Obs.Params == "factor=16,loop=0" && Obs.Gain > 1.3;
  }));
}
