// Host helpers of the textbook suite, on top of bench/kernels/bench_util.h (inputs from
// a hash of (seed, index), timing, checking, the result line): host copies of inputs,
// uploads and downloads, snapshots that restore an in-place computation's inputs
// between timed runs, full checks against a double-precision reference held in a
// vector, and the well-conditioned matrices the solvers need.
//
// The suite's kernels are written in the styles of other people's numerical codes,
// not in bench/kernels' style; only the host side is shared, so that each program's
// inputs, timing and result line mean the same in both suites.
#pragma once

#include "../kernels/bench_util.h"

namespace textbook {

// The values bench::uniformBuffer(N, Seed, Lo, Hi) holds, on the host.
inline std::vector<float> uniformHost(size_t N, uint64_t Seed, float Lo = -1.0f, float Hi = 1.0f) {
  std::vector<float> Host(N);
  for (size_t I = 0; I < N; ++I)
    Host[I] = bench::uniformAt(Seed, I, Lo, Hi);
  return Host;
}

// A device copy of Host.
template <class T> T *upload(const std::vector<T> &Host) {
  T *Dev = bench::deviceAlloc<T>(Host.size());
  BENCH_CUDA(cudaMemcpy(Dev, Host.data(), Host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return Dev;
}

// The N elements at Dev, on the host.
template <class T> std::vector<T> download(const T *Dev, size_t N) {
  std::vector<T> Host(N);
  BENCH_CUDA(cudaDeviceSynchronize());
  BENCH_CUDA(cudaMemcpy(Host.data(), Dev, N * sizeof(T), cudaMemcpyDeviceToHost));
  return Host;
}

// Copies N elements from Src to Dst on the device: restores a buffer that a
// computation overwrites from a snapshot taken before the first run.
template <class T> void restore(T *Dst, const T *Src, size_t N) {
  BENCH_CUDA(cudaMemcpy(Dst, Src, N * sizeof(T), cudaMemcpyDeviceToDevice));
}

// A device snapshot of the N elements at Src.
template <class T> T *snapshot(const T *Src, size_t N) {
  T *Copy = bench::deviceAlloc<T>(N);
  restore(Copy, Src, N);
  return Copy;
}

// Every element of the device output Dev against Ref.
template <class T>
bench::CheckResult checkAll(const T *Dev, const std::vector<double> &Ref, double Rtol,
                            double Atol) {
  return bench::checkOutput(
      Dev, Ref.size(), Ref.size(), [&](size_t I) { return Ref[I]; }, Rtol, Atol);
}

// Host values widened to double: the starting point of a reference that repeats a
// program's steps in double.
inline std::vector<double> widen(const std::vector<float> &Host) {
  return std::vector<double>(Host.begin(), Host.end());
}

// An N x N row-major matrix, strictly diagonally dominant: uniform in [-1, 1) off the
// diagonal, N + 1 + uniform on it, so that elimination without pivoting and Jacobi
// iterations are stable in float.
inline std::vector<float> diagonallyDominant(int N, uint64_t Seed) {
  std::vector<float> A = uniformHost(size_t(N) * N, Seed);
  for (int I = 0; I < N; ++I)
    A[size_t(I) * N + I] += float(N + 1);
  return A;
}

// An N x N symmetric positive definite matrix (row-major): the symmetric part of a
// uniform matrix plus (N + 1) I, strictly diagonally dominant, so that Cholesky
// without pivoting is stable in float.
inline std::vector<float> symmetricPositiveDefinite(int N, uint64_t Seed) {
  std::vector<float> A = uniformHost(size_t(N) * N, Seed);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < I; ++J)
      A[size_t(J) * N + I] = A[size_t(I) * N + J];
  for (int I = 0; I < N; ++I)
    A[size_t(I) * N + I] = float(N + 1) + std::fabs(A[size_t(I) * N + I]);
  return A;
}

} // namespace textbook
