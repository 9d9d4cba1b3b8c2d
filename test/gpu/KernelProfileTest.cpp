// The original's profile on a real GPU: a copy is DRAM-bound, a chain of
// FMAs is SM-bound, and the counters say so. Counter access is required here
// (ncu works on the test machine), so an unavailable profile fails.
#include "evaluator/Evaluator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace kopt::evaluator;

namespace {

const char *const Copy = R"(
extern "C" __global__ void copy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
}
)";

// Four independent chains that converge (no overflow), 4096 steps each.
const char *const Burn = R"(
extern "C" __global__ void burn(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i], b = a + 1.0f, c = a - 1.0f, d = a * 0.5f;
  for (int k = 0; k < 4096; ++k) {
    a = fmaf(a, 0.9f, 0.1f);
    b = fmaf(b, 0.8f, 0.2f);
    c = fmaf(c, 0.7f, 0.3f);
    d = fmaf(d, 0.6f, 0.4f);
  }
  y[i] = a + b + c + d;
}
)";

Workload workload(int N) {
  Workload W;
  W.Args = {{"n", ScalarArg{ScalarType::I32, double(N)}},
            {"x", BufferArg{ScalarType::F32, uint64_t(N), Direction::In}},
            {"y", BufferArg{ScalarType::F32, uint64_t(N), Direction::Out}}};
  W.Launch.Grid = {uint32_t(N / 256), 1, 1};
  W.Launch.Block = {256, 1, 1};
  return W;
}

Baseline measure(const char *Code, const char *Name, int N) {
  EvaluatorOptions Options;
  Options.Seeds = 1;
  Options.Timing.MaxSeconds = 0.5;
  auto E = Evaluator::start(Options);
  EXPECT_TRUE(bool(E)) << llvm::toString(E.takeError());
  if (!E)
    return {};
  auto B = (*E)->setOriginal(KernelSource{Code, Name, Name, {}}, workload(N));
  EXPECT_TRUE(bool(B)) << llvm::toString(B.takeError());
  if (!B)
    return Baseline();
  for (const auto &[Metric, Value] : B->Counters.Metrics) // For the log of the run.
    std::printf("  %s %s = %.3f\n", Name, Metric.c_str(), Value);
  return *B;
}

double metric(const Profile &P, const char *Name) {
  auto It = P.Metrics.find(Name);
  EXPECT_NE(It, P.Metrics.end()) << Name << " missing";
  return It == P.Metrics.end() ? -1 : It->second;
}

constexpr const char *Dram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char *Sm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char *Occupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";

TEST(KernelProfile, CopyIsDramBound) {
  Baseline B = measure(Copy, "copy", 1 << 25); // 128 MiB each way: far past L2.
  ASSERT_TRUE(B.Counters.available()) << B.Counters.Error;
  double D = metric(B.Counters, Dram);
  EXPECT_GT(D, 50) << "a copy should use most of the DRAM bandwidth";
  EXPECT_LE(D, 100.5);
  EXPECT_GT(metric(B.Counters, Occupancy), 10);
  double L2 = metric(B.Counters, "lts__t_sector_hit_rate.pct");
  EXPECT_GE(L2, 0);
  EXPECT_LE(L2, 100.5);
  // Both buffers cross DRAM once: 256 MiB, give or take.
  double Bytes = metric(B.Counters, "dram__bytes.sum");
  EXPECT_GT(Bytes, 0.8 * 256 * (1 << 20));
  EXPECT_LT(Bytes, 1.5 * 256 * (1 << 20));
  for (const std::string &S : B.Counters.Skipped)
    ADD_FAILURE() << "a Hopper metric was not known: " << S;
}

TEST(KernelProfile, FmaChainIsSmBound) {
  Baseline B = measure(Burn, "burn", 1 << 20);
  ASSERT_TRUE(B.Counters.available()) << B.Counters.Error;
  double S = metric(B.Counters, Sm), D = metric(B.Counters, Dram);
  EXPECT_GT(S, D);
  EXPECT_GT(S, 40) << "4096 dependent FMAs per thread keep the SMs busy";
  EXPECT_LT(D, 20);
}

TEST(KernelProfile, TurnedOffSaysSo) {
  EvaluatorOptions Options;
  Options.Seeds = 1;
  Options.Timing.MaxSeconds = 0.2;
  Options.Profile = false;
  auto E = Evaluator::start(Options);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  auto B = (*E)->setOriginal(KernelSource{Copy, "copy", "copy", {}}, workload(1 << 16));
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  EXPECT_FALSE(B->Counters.available());
  EXPECT_EQ(B->Counters.Error.rfind("unavailable: ", 0), 0u) << B->Counters.Error;
  EXPECT_TRUE(B->Counters.Metrics.empty());
}

} // namespace

TEST(KernelProfile, WorkloadOverTheLimitIsNotProfiled) {
  EvaluatorOptions Options;
  Options.Seeds = 1;
  Options.Timing.MaxSeconds = 0.2;
  Options.ProfileMaxBytes = 1 << 16; // The copy below moves 512 KiB.
  auto E = Evaluator::start(Options);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  auto B = (*E)->setOriginal(KernelSource{Copy, "copy", "copy", {}}, workload(1 << 16));
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  EXPECT_FALSE(B->Counters.available());
  EXPECT_NE(B->Counters.Error.find("over the profiler's limit"), std::string::npos)
      << B->Counters.Error;
}

// The chosen variant's profile (VariantEvaluator::profile) reads the same
// metrics as the original's, on the variant's own launch; the copy rate is
// measured once and lies below the DRAM peak the clocks give.
TEST(KernelProfile, VariantProfileAndCopyRate) {
  EvaluatorOptions Options;
  Options.Seeds = 1;
  Options.Timing.MaxSeconds = 0.5;
  auto E = Evaluator::start(Options);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  const int N = 1 << 25;
  auto B = (*E)->setOriginal(KernelSource{Burn, "burn", "burn", {}}, workload(N));
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  ASSERT_TRUE(B->Counters.available()) << B->Counters.Error;
  std::printf("  copy rate %.0f GB/s (peak from clocks %.0f GB/s), FP32 peak %.0f GFLOP/s\n",
              B->CopyGBs, B->Device.peakDramGBs(), B->Device.peakFp32Gflops());
  EXPECT_GT(B->CopyGBs, 0.5 * B->Device.peakDramGBs()) << B->CopyRateMissing;
  EXPECT_LT(B->CopyGBs, 1.02 * B->Device.peakDramGBs());
  EXPECT_GT(B->Device.peakFp32Gflops(), 1000);
  // The copy kernel as a "variant" of the burn: DRAM-bound where the original is not.
  Profile V =
      (*E)->profile(KernelSource{Copy, "copy", "copy", {}}, VariantLaunch(workload(N).Launch));
  ASSERT_TRUE(V.available()) << V.Error;
  EXPECT_GT(metric(V, Dram), metric(B->Counters, Dram));
  EXPECT_GT(metric(V, Dram), 50);
  EXPECT_EQ(V.Metrics.count("gpu__time_duration.sum"), 1u);
  EXPECT_EQ(B->Counters.Metrics.size(), V.Metrics.size()) << "the same metrics for both";
}
