// Shared host helpers of the naive-kernel suite: deterministic inputs, timing,
// checking against a double-precision reference, and the one result line.
//
// Inputs are a pure function of (seed, index): the GPU fills buffers of billions
// of elements in milliseconds, and the host reference recomputes any element it
// needs without a host copy. Outputs are checked in full when they have at most
// `maxSamples` elements, else at `maxSamples` indices drawn with a fixed seed
// (always including the first and the last element), or, for row-wise references,
// in full on a few rows drawn the same way (sampleRows).
//
// An element passes when |got - ref| <= max(rtol * |ref|, atol); max_rel_err is
// max |got - ref| / max(|ref|, atol / rtol), so the check passes iff it is <= rtol.
// NaN or Inf where the reference is finite fails.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace bench {

inline void cudaCheck(cudaError_t Err, const char *What, const char *File, int Line) {
  if (Err == cudaSuccess)
    return;
  std::fprintf(stderr, "%s:%d: %s: %s\n", File, Line, What, cudaGetErrorString(Err));
  std::exit(2);
}
#define BENCH_CUDA(call) bench::cudaCheck((call), #call, __FILE__, __LINE__)

// splitmix64: a good 64-bit mix of (seed, index), the same on host and device.
__host__ __device__ inline uint64_t mix(uint64_t Seed, uint64_t I) {
  uint64_t Z = Seed * 0x9E3779B97F4A7C15ull + I + 0x632BE59BD9B4E5BBull;
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
  return Z ^ (Z >> 31);
}

// Element I of the uniform stream Seed, in [Lo, Hi). The arithmetic is spelled
// with round-to-nearest intrinsics on the device so that no FMA contraction makes
// the device value differ from the host's.
__host__ __device__ inline float uniformAt(uint64_t Seed, uint64_t I, float Lo = -1.0f,
                                           float Hi = 1.0f) {
  float U = float(mix(Seed, I) >> 40) * (1.0f / 16777216.0f); // 24 bits: exact.
#ifdef __CUDA_ARCH__
  return __fadd_rn(Lo, __fmul_rn(Hi - Lo, U));
#else
  return Lo + (Hi - Lo) * U;
#endif
}

// Element I of the integer stream Seed, in [Lo, Hi).
__host__ __device__ inline int intAt(uint64_t Seed, uint64_t I, int Lo, int Hi) {
  return Lo + int(mix(Seed, I) % uint64_t(Hi - Lo));
}

__global__ void fillUniformKernel(float *P, size_t N, uint64_t Seed, float Lo, float Hi) {
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
       I += size_t(gridDim.x) * blockDim.x)
    P[I] = uniformAt(Seed, I, Lo, Hi);
}

__global__ void fillIntKernel(int *P, size_t N, uint64_t Seed, int Lo, int Hi) {
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
       I += size_t(gridDim.x) * blockDim.x)
    P[I] = intAt(Seed, I, Lo, Hi);
}

template <class T>
__global__ void gatherKernel(const T *Src, const size_t *Index, T *Dst, size_t N) {
  size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (I < N)
    Dst[I] = Src[Index[I]];
}

template <class T> T *deviceAlloc(size_t N) {
  T *P = nullptr;
  BENCH_CUDA(cudaMalloc(&P, std::max<size_t>(N, 1) * sizeof(T)));
  return P;
}

// A device buffer of N floats, element i = uniformAt(Seed, i, Lo, Hi).
inline float *uniformBuffer(size_t N, uint64_t Seed, float Lo = -1.0f, float Hi = 1.0f) {
  float *P = deviceAlloc<float>(N);
  fillUniformKernel<<<1024, 256>>>(P, N, Seed, Lo, Hi);
  BENCH_CUDA(cudaGetLastError());
  return P;
}

// A device buffer of N ints, element i = intAt(Seed, i, Lo, Hi).
inline int *intBuffer(size_t N, uint64_t Seed, int Lo, int Hi) {
  int *P = deviceAlloc<int>(N);
  fillIntKernel<<<1024, 256>>>(P, N, Seed, Lo, Hi);
  BENCH_CUDA(cudaGetLastError());
  return P;
}

template <class T> T *zeroBuffer(size_t N) {
  T *P = deviceAlloc<T>(N);
  BENCH_CUDA(cudaMemset(P, 0, std::max<size_t>(N, 1) * sizeof(T)));
  return P;
}

// Median time in ms of Runs calls of Launch (after Warmup untimed ones), each
// timed by its own pair of CUDA events and preceded by an untimed Reset: for a
// computation that works in place (a solver, a time-stepped stencil), Reset
// restores its inputs, so that every run, the last one included, computes the
// same result from the same data.
template <class ResetFn, class LaunchFn>
float medianMsWithReset(ResetFn Reset, LaunchFn Launch, int Warmup = 3, int Runs = 21) {
  for (int I = 0; I < Warmup; ++I) {
    Reset();
    Launch();
  }
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaDeviceSynchronize());
  cudaEvent_t Start, Stop;
  BENCH_CUDA(cudaEventCreate(&Start));
  BENCH_CUDA(cudaEventCreate(&Stop));
  std::vector<float> Times;
  for (int I = 0; I < Runs; ++I) {
    Reset();
    BENCH_CUDA(cudaEventRecord(Start));
    Launch();
    BENCH_CUDA(cudaEventRecord(Stop));
    BENCH_CUDA(cudaEventSynchronize(Stop));
    float Ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&Ms, Start, Stop));
    Times.push_back(Ms);
  }
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaEventDestroy(Start));
  BENCH_CUDA(cudaEventDestroy(Stop));
  std::sort(Times.begin(), Times.end());
  return Times[Times.size() / 2];
}

// Median time in ms of Runs calls of Launch (after Warmup untimed ones), each
// timed by its own pair of CUDA events.
template <class LaunchFn> float medianMs(LaunchFn Launch, int Warmup = 3, int Runs = 21) {
  return medianMsWithReset([] {}, Launch, Warmup, Runs);
}

// All of [0, N) when N <= MaxSamples, else MaxSamples sorted indices drawn with a
// fixed seed, the first and the last element among them.
inline std::vector<size_t> sampleIndices(size_t N, size_t MaxSamples) {
  std::vector<size_t> Index;
  if (N <= MaxSamples) {
    for (size_t I = 0; I < N; ++I)
      Index.push_back(I);
    return Index;
  }
  Index.push_back(0);
  Index.push_back(N - 1);
  for (size_t I = 2; I < MaxSamples; ++I)
    Index.push_back(size_t(mix(0x5A3B1E, I) % N));
  std::sort(Index.begin(), Index.end());
  return Index;
}

// The device values at Index, copied back through a gather on the device.
template <class T> std::vector<T> gather(const T *Dev, const std::vector<size_t> &Index) {
  size_t N = Index.size();
  size_t *DevIndex = deviceAlloc<size_t>(N);
  T *DevOut = deviceAlloc<T>(N);
  BENCH_CUDA(cudaMemcpy(DevIndex, Index.data(), N * sizeof(size_t), cudaMemcpyHostToDevice));
  gatherKernel<<<unsigned((N + 255) / 256), 256>>>(Dev, DevIndex, DevOut, N);
  BENCH_CUDA(cudaGetLastError());
  std::vector<T> Out(N);
  BENCH_CUDA(cudaMemcpy(Out.data(), DevOut, N * sizeof(T), cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaFree(DevIndex));
  BENCH_CUDA(cudaFree(DevOut));
  return Out;
}

struct CheckResult {
  bool Ok = true;
  double MaxRelErr = 0;
  size_t Checked = 0, Failed = 0;
};

// All elements of MaxRows rows of a Rows x Cols row-major output (all rows when
// Rows <= MaxRows): the first, the last, and rows drawn with a fixed seed. For
// references that compute a whole row at once (softmax, cumulative sums).
inline std::vector<size_t> sampleRows(size_t Rows, size_t Cols, size_t MaxRows) {
  std::vector<size_t> Index;
  for (size_t Row : sampleIndices(Rows, MaxRows))
    if (Index.empty() || Row * Cols > Index.back())
      for (size_t C = 0; C < Cols; ++C)
        Index.push_back(Row * Cols + C);
  return Index;
}

// Compares Got[k], an output's element Index[k], with Ref(Index[k]), a double. The
// first few failures go to stderr.
template <class T, class RefFn>
CheckResult compareAt(const std::vector<T> &Got, const std::vector<size_t> &Index, RefFn Ref,
                      double Rtol, double Atol) {
  // With rtol = 0 (exact checks, integer outputs) max_rel_err is relative to max(|ref|, 1).
  double Floor = Rtol > 0 ? std::max(Atol / Rtol, 1e-30) : 1.0;
  CheckResult R;
  for (size_t K = 0; K < Index.size(); ++K) {
    double Want = Ref(Index[K]);
    double Have = double(Got[K]);
    double Diff = std::fabs(Have - Want);
    bool Pass = Diff <= std::max(Rtol * std::fabs(Want), Atol);
    if (!std::isfinite(Have) && std::isfinite(Want))
      Pass = false, Diff = INFINITY;
    R.MaxRelErr = std::max(R.MaxRelErr, Diff / std::max(std::fabs(Want), Floor));
    ++R.Checked;
    if (!Pass) {
      if (R.Failed < 5)
        std::fprintf(stderr, "mismatch at %zu: got %.9g, want %.9g\n", Index[K], Have, Want);
      ++R.Failed;
      R.Ok = false;
    }
  }
  return R;
}

// Compares the device output Dev at Index (sorted) with Ref(i), a double.
template <class T, class RefFn>
CheckResult checkOutputAt(const T *Dev, const std::vector<size_t> &Index, RefFn Ref, double Rtol,
                          double Atol) {
  BENCH_CUDA(cudaDeviceSynchronize());
  return compareAt(gather(Dev, Index), Index, Ref, Rtol, Atol);
}

// Compares the N-element device output Dev with Ref(i) at sampleIndices(N, MaxSamples).
template <class T, class RefFn>
CheckResult checkOutput(const T *Dev, size_t N, size_t MaxSamples, RefFn Ref, double Rtol,
                        double Atol) {
  return checkOutputAt(Dev, sampleIndices(N, MaxSamples), Ref, Rtol, Atol);
}

// Combines the checks of several outputs.
inline CheckResult combine(const CheckResult &A, const CheckResult &B) {
  CheckResult R;
  R.Ok = A.Ok && B.Ok;
  R.MaxRelErr = std::max(A.MaxRelErr, B.MaxRelErr);
  R.Checked = A.Checked + B.Checked;
  R.Failed = A.Failed + B.Failed;
  return R;
}

// Prints the suite's result line for the source file Path and returns the exit
// status: 0 when the check passed, 1 when it failed.
inline int report(const char *Path, float Ms, const CheckResult &R) {
  std::string Stem = Path;
  size_t Slash = Stem.find_last_of('/');
  if (Slash != std::string::npos)
    Stem = Stem.substr(Slash + 1);
  size_t Dot = Stem.rfind('.');
  if (Dot != std::string::npos)
    Stem = Stem.substr(0, Dot);
  std::printf("KOPT_BENCH name=%s ms=%.4f check=%s max_rel_err=%.3g\n", Stem.c_str(), Ms,
              R.Ok ? "ok" : "FAIL", R.MaxRelErr);
  if (!R.Ok)
    std::fprintf(stderr, "%s: %zu of %zu checked elements wrong\n", Stem.c_str(), R.Failed,
                 R.Checked);
  return R.Ok ? 0 : 1;
}

} // namespace bench
