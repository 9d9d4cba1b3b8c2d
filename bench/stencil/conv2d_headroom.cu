// How far bench/textbook/conv2d_3x3.cu (PolyBench-GPU's 2DCONV, 16384 x 24576
// floats) is from what its memory traffic allows on the H100 (issue 14: no
// stencil gains). Each kernel is timed alone (median of TIMES) and checked
// against the naive one bit for bit:
//   copy          B = A over the same cells: the traffic's floor
//   naive         the textbook kernel, 32 x 8 blocks
//   naive WxH     the same body in other block shapes
//   coarse F      what thread-coarsening-2d writes (F consecutive rows a
//                 thread, the body repeated), without and with __restrict__
//   strided F     the same, rows a block's height apart
//   rows R        each thread computes R consecutive rows of its column,
//                 keeping the 3 x 3 window in registers (3 loads an output
//                 instead of 9)
//   nvcc -O3 -arch=sm_90 -o conv2d_headroom bench/stencil/conv2d_headroom.cu && ./conv2d_headroom
// Results: bench/RESULTS.md (2026-11-28).
#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <vector>
#define NI 16384
#define NJ 24576
#ifndef TIMES
#define TIMES 7
#endif

#define C11 +0.1f
#define C21 -0.3f
#define C31 +0.7f
#define C12 +0.25f
#define C22 +0.5f
#define C32 -0.6f
#define C13 -0.4f
#define C23 +0.8f
#define C33 +0.15f

__global__ void copy(const float *A, float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0)) B[i * NJ + j] = A[i * NJ + j];
}

__global__ void naive(float *A, float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0))
    B[i * NJ + j] = C11 * A[(i - 1) * NJ + (j - 1)] + C21 * A[(i - 1) * NJ + (j + 0)] + C31 * A[(i - 1) * NJ + (j + 1)] +
                    C12 * A[(i + 0) * NJ + (j - 1)] + C22 * A[(i + 0) * NJ + (j + 0)] + C32 * A[(i + 0) * NJ + (j + 1)] +
                    C13 * A[(i + 1) * NJ + (j - 1)] + C23 * A[(i + 1) * NJ + (j + 0)] + C33 * A[(i + 1) * NJ + (j + 1)];
}

// Rows i0 .. i0 + R - 1 of column j; the window slides down one row a step.
template <int R> __global__ void rows(const float *__restrict__ A, float *__restrict__ B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i0 = (blockIdx.y * blockDim.y + threadIdx.y) * R;
  if (j <= 0 || j >= NJ - 1) return;
  auto load = [&](int i, float &l, float &m, float &r) {
    if (i >= 0 && i < NI) { l = A[i * NJ + j - 1]; m = A[i * NJ + j]; r = A[i * NJ + j + 1]; }
  };
  float a0 = 0, a1 = 0, a2 = 0, b0 = 0, b1 = 0, b2 = 0, c0, c1, c2;
  load(i0 - 1, a0, a1, a2);
  load(i0, b0, b1, b2);
#pragma unroll
  for (int r = 0; r < R; ++r) {
    int i = i0 + r;
    c0 = c1 = c2 = 0;
    load(i + 1, c0, c1, c2);
    if (i > 0 && i < NI - 1)
      B[i * NJ + j] = C11 * a0 + C21 * a1 + C31 * a2 + C12 * b0 + C22 * b1 + C32 * b2 + C13 * c0 + C23 * c1 + C33 * c2;
    a0 = b0; a1 = b1; a2 = b2; b0 = c0; b1 = c1; b2 = c2;
  }
}

// What thread-coarsening-2d writes: the body runs for F consecutive rows, each
// a virtual thread; with __restrict__ (restrict-readonly) nvcc may hoist one
// row's loads above the previous row's store and share the rows they overlap.
#define RESTRICT_float_ptr(R) std::conditional_t<R, float *__restrict__, float *>
template <int F, bool R> __global__ void coarse(RESTRICT_float_ptr(R) A, RESTRICT_float_ptr(R) B) {
#pragma unroll
  for (unsigned kopt_row = 0; kopt_row < F; ++kopt_row) {
    const unsigned kopt_gy = (blockIdx.y * blockDim.y + threadIdx.y) * F + kopt_row;
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = kopt_gy;
    if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0))
      B[i * NJ + j] = C11 * A[(i - 1) * NJ + (j - 1)] + C21 * A[(i - 1) * NJ + (j + 0)] + C31 * A[(i - 1) * NJ + (j + 1)] +
                      C12 * A[(i + 0) * NJ + (j - 1)] + C22 * A[(i + 0) * NJ + (j + 0)] + C32 * A[(i + 0) * NJ + (j + 1)] +
                      C13 * A[(i + 1) * NJ + (j - 1)] + C23 * A[(i + 1) * NJ + (j + 0)] + C33 * A[(i + 1) * NJ + (j + 1)];
  }
}
// The same rows strided by the block's height instead of consecutive.
template <int F> __global__ void strided(float *__restrict__ A, float *__restrict__ B) {
#pragma unroll
  for (unsigned kopt_row = 0; kopt_row < F; ++kopt_row) {
    const unsigned kopt_gy = blockIdx.y * blockDim.y * F + threadIdx.y + kopt_row * blockDim.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = kopt_gy;
    if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0))
      B[i * NJ + j] = C11 * A[(i - 1) * NJ + (j - 1)] + C21 * A[(i - 1) * NJ + (j + 0)] + C31 * A[(i - 1) * NJ + (j + 1)] +
                      C12 * A[(i + 0) * NJ + (j - 1)] + C22 * A[(i + 0) * NJ + (j + 0)] + C32 * A[(i + 0) * NJ + (j + 1)] +
                      C13 * A[(i + 1) * NJ + (j - 1)] + C23 * A[(i + 1) * NJ + (j + 0)] + C33 * A[(i + 1) * NJ + (j + 1)];
  }
}
__global__ void naiveRestrict(float *__restrict__ A, float *__restrict__ B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0))
    B[i * NJ + j] = C11 * A[(i - 1) * NJ + (j - 1)] + C21 * A[(i - 1) * NJ + (j + 0)] + C31 * A[(i - 1) * NJ + (j + 1)] +
                    C12 * A[(i + 0) * NJ + (j - 1)] + C22 * A[(i + 0) * NJ + (j + 0)] + C32 * A[(i + 0) * NJ + (j + 1)] +
                    C13 * A[(i + 1) * NJ + (j - 1)] + C23 * A[(i + 1) * NJ + (j + 0)] + C33 * A[(i + 1) * NJ + (j + 1)];
}

template <typename F> float timeIt(F f) {
  cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
  std::vector<float> ms;
  for (int r = 0; r < TIMES; ++r) {
    cudaEventRecord(s); f(); cudaEventRecord(e); cudaEventSynchronize(e);
    float t; cudaEventElapsedTime(&t, s, e); ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main() {
  size_t n = size_t(NI) * NJ;
  std::vector<float> h(n);
  unsigned long long st = 88172645463325252ull;
  for (auto &x : h) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; x = float((st >> 40) * 0x1.0p-24) * 2.f - 1.f; }
  float *A, *B;
  cudaMalloc(&A, 4 * n); cudaMalloc(&B, 4 * n);
  cudaMemcpy(A, h.data(), 4 * n, cudaMemcpyHostToDevice);
  std::vector<float> ref(n), got(n);
  auto grid = [](int bx, int by, int r) { return dim3((NJ + bx - 1) / bx, (NI + by * r - 1) / (by * r)); };
  auto report = [&](const char *name, float t, bool check) {
    cudaError_t err = cudaDeviceSynchronize();
    size_t bad = 0;
    if (check) {
      cudaMemcpy(got.data(), B, 4 * n, cudaMemcpyDeviceToHost);
      for (size_t i = 0; i < n; ++i) bad += got[i] != ref[i];
    }
    printf("%-16s %7.3f ms %6.2f TB/s (read + write of the array)  %s%zu differ %s\n", name, t, 8.0 * n / t / 1e9,
           check ? "" : "(not checked) ", bad, err ? cudaGetErrorString(err) : "");
  };
  cudaMemset(B, 0, 4 * n);
  float tn = timeIt([&] { naive<<<grid(32, 8, 1), dim3(32, 8)>>>(A, B); });
  cudaMemcpy(ref.data(), B, 4 * n, cudaMemcpyDeviceToHost);
  report("naive 32x8", tn, false);
  report("copy", timeIt([&] { copy<<<grid(32, 8, 1), dim3(32, 8)>>>(A, B); }), false);
  const int shapes[][2] = {{64, 4}, {128, 2}, {256, 1}, {32, 16}, {64, 8}, {128, 4}};
  for (auto &s : shapes) {
    char name[32]; snprintf(name, sizeof name, "naive %dx%d", s[0], s[1]);
    cudaMemset(B, 0, 4 * n);
    report(name, timeIt([&] { naive<<<grid(s[0], s[1], 1), dim3(s[0], s[1])>>>(A, B); }), true);
  }
  cudaMemset(B, 0, 4 * n);
  report("rows 2 32x8", timeIt([&] { rows<2><<<grid(32, 8, 2), dim3(32, 8)>>>(A, B); }), true);
  cudaMemset(B, 0, 4 * n);
  report("rows 4 32x8", timeIt([&] { rows<4><<<grid(32, 8, 4), dim3(32, 8)>>>(A, B); }), true);
  cudaMemset(B, 0, 4 * n);
  report("rows 8 32x8", timeIt([&] { rows<8><<<grid(32, 8, 8), dim3(32, 8)>>>(A, B); }), true);
  cudaMemset(B, 0, 4 * n);
  report("rows 8 128x2", timeIt([&] { rows<8><<<grid(128, 2, 8), dim3(128, 2)>>>(A, B); }), true);
  cudaMemset(B, 0, 4 * n);
  report("rows 16 64x4", timeIt([&] { rows<16><<<grid(64, 4, 16), dim3(64, 4)>>>(A, B); }), true);
  cudaMemset(B, 0, 4 * n);
  report("naive restrict", timeIt([&] { naiveRestrict<<<grid(32, 8, 1), dim3(32, 8)>>>(A, B); }), true);
  for (int f : {2, 4, 8}) {
    auto run = [&](auto k, const char *what, int bx, int by) {
      char name[48]; snprintf(name, sizeof name, "%s %d %dx%d", what, f, bx, by);
      cudaMemset(B, 0, 4 * n);
      report(name, timeIt([&] { k<<<grid(bx, by, f), dim3(bx, by)>>>(A, B); }), true);
    };
    if (f == 2) { run(coarse<2, false>, "coarse", 32, 8); run(coarse<2, true>, "coarse+r", 32, 8); run(strided<2>, "strided+r", 32, 8); run(coarse<2, true>, "coarse+r", 64, 4); }
    if (f == 4) { run(coarse<4, false>, "coarse", 32, 8); run(coarse<4, true>, "coarse+r", 32, 8); run(strided<4>, "strided+r", 32, 8); run(coarse<4, true>, "coarse+r", 64, 4); }
    if (f == 8) { run(coarse<8, false>, "coarse", 32, 8); run(coarse<8, true>, "coarse+r", 32, 8); run(strided<8>, "strided+r", 32, 8); run(coarse<8, true>, "coarse+r", 64, 4); }
  }
  return 0;
}
