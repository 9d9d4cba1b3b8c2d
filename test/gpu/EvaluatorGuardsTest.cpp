// The evaluator's guards, one test each, on a real GPU: a variant reaches a
// build only if it computes what the original computes, and is faster only
// if the measurement says so.
#include "evaluator/Evaluator.h"

#include <gtest/gtest.h>

#include <string>

using namespace kopt::evaluator;
using kopt::evaluator::TimingStage;

namespace {

constexpr int N = 1 << 20;

// y = a * x + y: an in-place update, the case where a variant that skips work
// could leave plausible values behind.
const char *const Saxpy = R"(
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)";

Workload saxpyWorkload() {
  Workload W;
  W.Args = {{"n", ScalarArg{ScalarType::I32, N}},
            {"a", ScalarArg{ScalarType::F32, 2.0}},
            {"x", BufferArg{ScalarType::F32, N, Direction::In}},
            {"y", BufferArg{ScalarType::F32, N, Direction::InOut}}};
  W.Launch.Grid = {N / 256, 1, 1};
  W.Launch.Block = {256, 1, 1};
  return W;
}

KernelSource source(const std::string &Code) { return KernelSource{Code, "saxpy", "saxpy", {}}; }

// A variant of saxpy with Body in place of the original's body.
KernelSource variant(const std::string &Body) {
  return source("extern \"C\" __global__ void saxpy(int n, float a, const float *x, float *y) {\n" +
                Body + "\n}\n");
}

class EvaluatorGuards : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    EvaluatorOptions Options;
    Options.WatchdogSeconds = 2;
    Options.Timing.MaxSeconds = 1;
    auto E = Evaluator::start(Options);
    ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
    Eval = std::move(*E);
    auto B = Eval->setOriginal(source(Saxpy), saxpyWorkload());
    ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
    Base = *B;
  }
  static void TearDownTestSuite() { Eval.reset(); }

  static VariantOutcome evaluate(const KernelSource &S, LaunchGeometry L = saxpyWorkload().Launch) {
    auto O = Eval->evaluate(S, L);
    EXPECT_TRUE(bool(O)) << llvm::toString(O.takeError());
    return O ? *O : VariantOutcome();
  }

  static std::unique_ptr<Evaluator> Eval;
  static Baseline Base;
};
std::unique_ptr<Evaluator> EvaluatorGuards::Eval;
Baseline EvaluatorGuards::Base;

TEST_F(EvaluatorGuards, InPlaceOriginalIsMeasured) {
  EXPECT_GE(Base.Timing.Samples, 10u);
  EXPECT_GT(Base.Timing.MedianMs, 0);
  EXPECT_LE(Base.Timing.P20Ms, Base.Timing.MedianMs);
  EXPECT_GE(Base.Timing.P80Ms, Base.Timing.MedianMs);
  EXPECT_GT(Base.Resources.Registers, 0);
}

TEST_F(EvaluatorGuards, IdenticalVariantVerifiesAndIsNotFaster) {
  VariantOutcome O = evaluate(source(Saxpy));
  EXPECT_EQ(O.Result, Verdict::NotFaster) << O.Detail;
  EXPECT_EQ(O.SeedsVerified, 3u);
  // The sequential test stops at a look (5 samples a side at the earliest).
  EXPECT_GE(O.Original.Samples, 5u);
  EXPECT_EQ(O.Original.Samples, O.Variant.Samples);
  EXPECT_EQ(O.Samples, O.Variant.Samples);
  EXPECT_FALSE(O.TimingCall.empty());
  EXPECT_GT(O.Seconds, 0);
  // A screen of it: verified on every seed, and not faster. A screen is a
  // lenient first look (its false alarms are what confirm() is for; one came
  // in 1 of 4 runs on the H100): where it says promising, the confirmation
  // must say not faster.
  auto S = Eval->screen(source(Saxpy), saxpyWorkload().Launch);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_TRUE(S->Result == Verdict::NotFaster || S->Result == Verdict::Promising) << S->TimingCall;
  EXPECT_EQ(S->SeedsVerified, 3u);
  EXPECT_EQ(S->Stage, TimingStage::Screen);
  if (S->Result == Verdict::Promising) {
    auto C = Eval->confirm(source(Saxpy), saxpyWorkload().Launch);
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    EXPECT_EQ(C->Result, Verdict::NotFaster) << C->TimingCall;
  }
}

TEST_F(EvaluatorGuards, OneWrongElementIsNamed) {
  VariantOutcome O = evaluate(variant(R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + (i == 12345 ? 1e-3f : 0.0f);)"));
  EXPECT_EQ(O.Result, Verdict::Wrong);
  EXPECT_NE(O.Detail.find("buffer 'y'"), std::string::npos) << O.Detail;
  EXPECT_NE(O.Detail.find("element 12345"), std::string::npos) << O.Detail;
  EXPECT_NE(O.Detail.find("1 of 1048576"), std::string::npos) << O.Detail;
}

TEST_F(EvaluatorGuards, SkippedWorkIsCaught) {
  // Leaves the last element as it was: with y restored and x fresh for each
  // run, the stale value cannot match.
  VariantOutcome O = evaluate(variant(R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1)
    y[i] = a * x[i] + y[i];)"));
  EXPECT_EQ(O.Result, Verdict::Wrong);
  EXPECT_NE(O.Detail.find("element 1048575"), std::string::npos) << O.Detail;
}

TEST_F(EvaluatorGuards, WriteOnePastTheEndIsCaught) {
  VariantOutcome O = evaluate(variant(R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
  if (i == n - 1)
    y[n] = 0.0f;)"));
  EXPECT_EQ(O.Result, Verdict::Wrong);
  EXPECT_NE(O.Detail.find("out of bounds"), std::string::npos) << O.Detail;
  EXPECT_NE(O.Detail.find("'y'"), std::string::npos) << O.Detail;
}

TEST_F(EvaluatorGuards, WrittenInputIsCaught) {
  VariantOutcome O = evaluate(variant(R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
    if (i == 7)
      const_cast<float *>(x)[i] = 0.0f;
  })"));
  EXPECT_EQ(O.Result, Verdict::Wrong);
  EXPECT_NE(O.Detail.find("changed input buffer 'x'"), std::string::npos) << O.Detail;
}

TEST_F(EvaluatorGuards, CachedResultsAreCaught) {
  // Computes on the first call only and replays its outputs afterwards: fresh
  // inputs on the second input set expose it.
  KernelSource S = source(R"(
__device__ float kopt_cache[1 << 20];
__device__ unsigned kopt_calls;
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool First = kopt_calls == 0;
  if (i < n) {
    if (First)
      kopt_cache[i] = a * x[i] + y[i];
    y[i] = kopt_cache[i];
  }
  if (i == n - 1)
    atomicAdd(&kopt_calls, 1u);
}
)");
  VariantOutcome O = evaluate(S);
  EXPECT_EQ(O.Result, Verdict::Wrong) << O.Detail;
  EXPECT_NE(O.Detail.find("inputs #2"), std::string::npos) << O.Detail;
}

TEST_F(EvaluatorGuards, FaultIsRecordedAsCrashAndTheNextVariantRuns) {
  VariantOutcome Crash = evaluate(variant(R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = nullptr;
  if (i < n)
    y[i] = a * x[i] + p[i];)"));
  EXPECT_EQ(Crash.Result, Verdict::Crashed) << Crash.Detail;
  unsigned Restarts = Eval->workerRestarts();
  VariantOutcome Next = evaluate(source(Saxpy));
  EXPECT_EQ(Next.Result, Verdict::NotFaster) << Next.Detail;
  EXPECT_EQ(Eval->workerRestarts(), Restarts + 1);
}

TEST_F(EvaluatorGuards, EndlessLoopIsStoppedByTheWatchdog) {
  VariantOutcome Hang = evaluate(variant(R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // A volatile load each iteration: the compiler may not drop the loop.
  while (*(volatile const float *)x < 2.0f) {}
  if (i < n)
    y[i] = a * x[i] + y[i];)"));
  EXPECT_EQ(Hang.Result, Verdict::TimedOut) << Hang.Detail;
  VariantOutcome Next = evaluate(source(Saxpy));
  EXPECT_EQ(Next.Result, Verdict::NotFaster) << Next.Detail;
}

TEST_F(EvaluatorGuards, ReferencesBeyondTheKeptSetsAreRecomputed) {
  // More seeds than the worker keeps reference sets for: the oldest are
  // dropped and the original re-run when a dropped seed comes back.
  std::vector<uint64_t> Many;
  for (uint64_t S = 1; S <= 12; ++S)
    Many.push_back(S);
  auto Same = Eval->evaluate(source(Saxpy), saxpyWorkload().Launch, Many);
  ASSERT_TRUE(bool(Same)) << llvm::toString(Same.takeError());
  EXPECT_EQ(Same->Result, Verdict::NotFaster) << Same->Detail;
  EXPECT_EQ(Same->SeedsVerified, 12u);
  auto Wrong = Eval->evaluate(variant(R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + (i == 999 ? 1.0f : 0.0f);)"),
                              saxpyWorkload().Launch, {1});
  ASSERT_TRUE(bool(Wrong)) << llvm::toString(Wrong.takeError());
  EXPECT_EQ(Wrong->Result, Verdict::Wrong);
  EXPECT_NE(Wrong->Detail.find("inputs #1: buffer 'y': 1 of 1048576 elements differ; worst "
                               "element 999"),
            std::string::npos)
      << Wrong->Detail;
}

TEST_F(EvaluatorGuards, CompileErrorCarriesTheLog) {
  VariantOutcome O = evaluate(variant("  this is not CUDA;"));
  EXPECT_EQ(O.Result, Verdict::CompileError);
  EXPECT_NE(O.Detail.find("error"), std::string::npos) << O.Detail;
}

TEST_F(EvaluatorGuards, OversizedLaunchIsRejected) {
  LaunchGeometry L = saxpyWorkload().Launch;
  L.Block = {2048, 1, 1};
  VariantOutcome O = evaluate(source(Saxpy), L);
  EXPECT_EQ(O.Result, Verdict::LaunchRejected) << O.Detail;
}

TEST_F(EvaluatorGuards, WorkOnAnotherStreamIsNotAccepted) {
  // The variant hands the work to a child grid on a stream of its own (dynamic
  // parallelism), the device-side way to move work off the timed stream.
  KernelSource S = source(R"(
__global__ void kopt_child(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    kopt_child<<<(n + 255) / 256, 256, 0, cudaStreamFireAndForget>>>(n, a, x, y);
}
)");
  VariantOutcome O = evaluate(S);
  EXPECT_NE(O.Result, Verdict::Faster) << O.Detail;
  EXPECT_NE(O.Result, Verdict::NotFaster) << O.Detail;
}

// A second session: a kernel whose lanes stride through memory against its
// coalesced variant, which must be measured faster.
TEST(EvaluatorTiming, CoalescedVariantIsFaster) {
  auto E = Evaluator::start();
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  const int M = 1 << 24;
  Workload W;
  W.Args = {{"n", ScalarArg{ScalarType::I32, M}},
            {"x", BufferArg{ScalarType::F32, M, Direction::In}},
            {"y", BufferArg{ScalarType::F32, M, Direction::Out}}};
  W.Launch.Grid = {M / 256, 1, 1};
  W.Launch.Block = {256, 1, 1};
  auto Strided = [](const char *Index) {
    return KernelSource{std::string("extern \"C\" __global__ void scale(int n, const float *x, "
                                    "float *y) {\n  int t = blockIdx.x * blockDim.x + "
                                    "threadIdx.x;\n  int i = ") +
                            Index + ";\n  if (t < n)\n    y[i] = 3.0f * x[i];\n}\n",
                        "scale",
                        "scale",
                        {}};
  };
  // Thread t touches (t % 1024) * (n / 1024) + t / 1024: a permutation of [0, n).
  auto B = (*E)->setOriginal(Strided("(t % 1024) * (n / 1024) + t / 1024"), W);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  auto O = (*E)->evaluate(Strided("t"), W.Launch);
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->Result, Verdict::Faster) << O->Detail;
  EXPECT_GT(O->Speedup, 1.5);
  EXPECT_LT(O->PValue, 0.01);
  // Clearly faster: the sequential test stops at one of its first looks.
  EXPECT_LE(O->Samples, 8u) << O->TimingCall;
  // Screened, it is promising (never faster on a screen); confirmed, faster,
  // without being verified again (the worker kept it).
  auto S = (*E)->screen(Strided("t"), W.Launch);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Result, Verdict::Promising) << S->TimingCall;
  EXPECT_EQ(S->SeedsVerified, 3u);
  auto C = (*E)->confirm(Strided("t"), W.Launch);
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Result, Verdict::Faster) << C->TimingCall;
  EXPECT_EQ(C->SeedsVerified, 3u);
  EXPECT_TRUE(C->Compile.Compiler.empty()) << "confirmed without a second compile";
  EXPECT_GT(C->Speedup, 1.5);
}

// A kernel of iters dependent multiply-adds an element: tens of ms a launch
// at 1 << 20 iterations on an H100. Loops: the loop's trip count.
KernelSource chainKernel(const char *Loops, const char *Pragma = "") {
  return KernelSource{std::string("extern \"C\" __global__ void chain(int n, int iters, float a, "
                                  "float b, const float *x, float *y) {\n  int i = blockIdx.x * "
                                  "blockDim.x + threadIdx.x;\n  if (i < n) {\n    float v = "
                                  "x[i];\n") +
                          Pragma + "\n    for (int k = 0; k < " + Loops +
                          "; ++k)\n      v = v * a + b;\n    y[i] = v;\n  }\n}\n",
                      "chain",
                      "chain",
                      {}};
}

Workload chainWorkload(float A, float B) {
  const int Elements = 1 << 20;
  Workload W;
  W.Args = {{"n", ScalarArg{ScalarType::I32, Elements}},
            {"iters", ScalarArg{ScalarType::I32, 1 << 20}},
            {"a", ScalarArg{ScalarType::F32, A}},
            {"b", ScalarArg{ScalarType::F32, B}},
            {"x", BufferArg{ScalarType::F32, Elements, Direction::In}},
            {"y", BufferArg{ScalarType::F32, Elements, Direction::Out}}};
  W.Launch.Grid = {Elements / 256, 1, 1};
  W.Launch.Block = {256, 1, 1};
  return W;
}

// A kernel too long for 5 rounds in the screen's seconds (here 0.2 s: over
// 20 ms): no warm-up runs, a baseline of its runs on the input sets and timed
// samples (SequentialTest.h: PooledBaselineRuns), and a screen read from the
// verification runs alone.
TEST(EvaluatorTiming, LongKernelIsScreenedOnItsVerificationRuns) {
  EvaluatorOptions Options;
  Options.Timing.ScreenSeconds = 0.2;
  auto E = Evaluator::start(Options);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  auto B = (*E)->setOriginal(chainKernel("iters"), chainWorkload(0.999f, 0.001f));
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  if (!runTimed(SequentialDesign(), B->Timing.MedianMs * 0.9, Options.Timing.ScreenSeconds))
    GTEST_SKIP() << "the chain takes " << B->Timing.MedianMs << " ms here, not a long kernel";
  EXPECT_EQ(B->Timing.Samples, PooledBaselineRuns)
      << "the baseline of a long kernel is its 3 reference runs and 3 timed samples";
  auto S =
      (*E)->screen(chainKernel("iters", "#pragma unroll 1"), chainWorkload(0.999f, 0.001f).Launch);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->SeedsVerified, 3u);
  EXPECT_EQ(S->Samples, 3u) << S->TimingCall; // The three verification runs, paired.
  EXPECT_NE(S->TimingCall.find("verification runs"), std::string::npos) << S->TimingCall;
  EXPECT_NE(S->Result, Verdict::Faster);
}

// Its confirmation: the variant's verification runs and at most 3 timed runs
// against the original's baseline pool, with no run of the original. With a
// = 1 and b = 0 the chain leaves x as it is, so half the loop is a correct
// variant twice as fast.
TEST(EvaluatorTiming, LongKernelIsConfirmedOnItsRuns) {
  EvaluatorOptions Options;
  Options.Timing.ScreenSeconds = 0.2;
  auto E = Evaluator::start(Options);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  Workload W = chainWorkload(1.0f, 0.0f);
  auto B = (*E)->setOriginal(chainKernel("2 * iters"), W);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  if (!runTimed(SequentialDesign(), B->Timing.MedianMs * 0.9, Options.Timing.ScreenSeconds))
    GTEST_SKIP() << "the chain takes " << B->Timing.MedianMs << " ms here, not a long kernel";
  auto S = (*E)->screen(chainKernel("iters"), W.Launch);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Result, Verdict::Promising) << S->TimingCall;
  auto C = (*E)->confirm(chainKernel("iters"), W.Launch);
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Result, Verdict::Faster) << C->TimingCall;
  EXPECT_TRUE(C->Compile.Compiler.empty()) << "confirmed without a second compile";
  EXPECT_EQ(C->SeedsVerified, 3u);
  // Its 3 verification runs and at most 3 timed ones: one where the first
  // settles it, more where its time varies (on an H200: 6, p = 2.5e-3).
  EXPECT_GE(C->Samples, 4u) << C->TimingCall;
  EXPECT_LE(C->Samples, 6u) << C->TimingCall;
  EXPECT_EQ(C->Original.Samples, PooledBaselineRuns);
  EXPECT_NEAR(C->Speedup, 2, 0.2);
  // The original's own loop as a variant: not faster, within PooledMaxRuns runs.
  auto Same = (*E)->evaluate(chainKernel("2 * iters", "#pragma unroll 1"), W.Launch);
  ASSERT_TRUE(bool(Same)) << llvm::toString(Same.takeError());
  EXPECT_EQ(Same->Result, Verdict::NotFaster) << Same->TimingCall;
  EXPECT_LE(Same->Samples, PooledMaxRuns) << Same->TimingCall;
  EXPECT_GE(Same->Samples, 3u) << Same->TimingCall;
}

// A gather y[i] = x[idx[i]] with the same product of multiplications by
// `one` (1 at run time, so the compiler keeps them) in every spelling: the
// original spends Work multiplications on each element; a variant can spend
// Local of them where the index lies near its own position and none
// elsewhere, so it is faster on the seeds' scattered indices and, with Local
// large, slower on local ones.
KernelSource gatherKernel(int Work, int Local) {
  std::string Near = "abs(idx[i] - i) <= 256";
  return KernelSource{
      "extern \"C\" __global__ void gather(int n, float one, const int *idx, "
      "const float *x, float *y) {\n  int i = blockIdx.x * blockDim.x + "
      "threadIdx.x;\n  if (i >= n) return;\n  float v = x[idx[i]];\n  int k = " +
          (Local ? "(" + Near + ") ? " + std::to_string(Local) + " : 0" : std::to_string(Work)) +
          ";\n  for (int j = 0; j < k; ++j)\n    v *= one;\n  y[i] = v;\n}\n",
      "gather",
      "gather",
      {}};
}

// Indices over [0, n): the seeds draw them uniformly, the local-indices run
// near each element's position (InputGenerator.h's localIndexElement).
TEST(EvaluatorTiming, VariantSlowerOnLocalIndicesIsNotFaster) {
  auto E = Evaluator::start();
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  const int M = 1 << 22;
  Workload W;
  BufferArg Idx{ScalarType::I32, M, Direction::In};
  Idx.Range = ValueRange{0, M};
  W.Args = {{"n", ScalarArg{ScalarType::I32, M}},
            {"one", ScalarArg{ScalarType::F32, 1.0}},
            {"idx", Idx},
            {"x", BufferArg{ScalarType::F32, M, Direction::In}},
            {"y", BufferArg{ScalarType::F32, M, Direction::Out}}};
  W.Launch.Grid = {M / 256, 1, 1};
  W.Launch.Block = {256, 1, 1};
  auto B = (*E)->setOriginal(gatherKernel(512, 0), W);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  // Faster on both: the original's work left out everywhere.
  auto Both = (*E)->evaluate(gatherKernel(0, 0), W.Launch);
  ASSERT_TRUE(bool(Both)) << llvm::toString(Both.takeError());
  EXPECT_EQ(Both->Result, Verdict::Faster) << Both->TimingCall;
  EXPECT_NE(Both->TimingCall.find("on local indices"), std::string::npos) << Both->TimingCall;
  // Faster on scattered indices only: 16 times the work where they are local.
  auto Scattered = (*E)->evaluate(gatherKernel(512, 8192), W.Launch);
  ASSERT_TRUE(bool(Scattered)) << llvm::toString(Scattered.takeError());
  EXPECT_EQ(Scattered->Result, Verdict::NotFaster) << Scattered->TimingCall;
  EXPECT_NE(Scattered->TimingCall.find("slower on local ones"), std::string::npos)
      << Scattered->TimingCall;
  EXPECT_LT(Scattered->Speedup, 1);
}

} // namespace
