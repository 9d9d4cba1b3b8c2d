// Host helpers of the application suite, on top of the textbook suite's (inputs from a
// hash of (seed, index), uploads, snapshots, checks, the result line): the program's time
// measured as the application runs it, and references computed on every core.
//
// The suite's kernels are written the way research codes write them; only this host side
// is shared, so that every program's time and result line mean the same.
#pragma once

#include "../textbook/textbook_util.h"

#include <cuda_profiler_api.h>

#include <algorithm>
#include <thread>

namespace apps {

// Median time in ms of the whole computation (Run: every kernel and host step, as the
// program runs it), each run after an untimed Reset that restores its inputs. Then one
// more run between cudaProfilerStart and cudaProfilerStop, after the device is idle: a
// tool that times kernels there (bench/suite.py's kernel-times injection) sees one
// computation's kernels and nothing else, so their share of the program is measured.
template <class ResetFn, class RunFn>
float programMs(ResetFn Reset, RunFn Run, int Warmup = 3, int Runs = 21) {
#ifdef KOPT_CPU_EMULATION // bench/emulate_cpu.py: the result matters, not the time.
  Warmup = 0;
  Runs = 1;
#endif
  float Ms = bench::medianMsWithReset(Reset, Run, Warmup, Runs);
  Reset();
  BENCH_CUDA(cudaDeviceSynchronize());
  // Their status is not checked: without a profiler attached they do nothing, and a tool
  // that misses the bracket says so itself; the program's result must not depend on them.
  (void)cudaProfilerStart();
  Run();
  BENCH_CUDA(cudaDeviceSynchronize());
  (void)cudaProfilerStop();
  return Ms;
}

// programMs for a computation that overwrites none of its inputs.
template <class RunFn> float programMs(RunFn Run, int Warmup = 3, int Runs = 21) {
  return programMs([] {}, Run, Warmup, Runs);
}

// Calls Body(I) for every I in [0, N), spread over the host's cores: the double-precision
// references of O(n^2) and time-stepped programs would otherwise dominate the suite's time.
template <class BodyFn> void parallelFor(size_t N, BodyFn Body) {
  size_t Workers = std::max(1u, std::thread::hardware_concurrency());
  Workers = std::min(Workers, std::max<size_t>(N, 1));
  std::vector<std::thread> Pool;
  for (size_t W = 0; W < Workers; ++W)
    Pool.emplace_back([&, W] {
      for (size_t I = W * N / Workers; I < (W + 1) * N / Workers; ++I)
        Body(I);
    });
  for (std::thread &T : Pool)
    T.join();
}

// Every element of the host values Got against Want.
template <class T>
bench::CheckResult checkHost(const std::vector<T> &Got, const std::vector<double> &Want,
                             double Rtol, double Atol) {
  std::vector<size_t> Index(Got.size());
  for (size_t I = 0; I < Index.size(); ++I)
    Index[I] = I;
  return bench::compareAt(Got, Index, [&](size_t I) { return Want[I]; }, Rtol, Atol);
}

// The reference for bench::checkOutputAt(Dev, Index, ...) from values computed at the
// sorted indices Index: element I's value is Values at I's position in Index.
inline auto valuesAt(const std::vector<size_t> &Index, const std::vector<double> &Values) {
  return [&Index, &Values](size_t I) {
    return Values[size_t(std::lower_bound(Index.begin(), Index.end(), I) - Index.begin())];
  };
}

// N integers of the stream Seed in [Lo, Hi), as bench::intBuffer holds them, on the host.
inline std::vector<int> intHost(size_t N, uint64_t Seed, int Lo, int Hi) {
  std::vector<int> Host(N);
  for (size_t I = 0; I < N; ++I)
    Host[I] = bench::intAt(Seed, I, Lo, Hi);
  return Host;
}

} // namespace apps
