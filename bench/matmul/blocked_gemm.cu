// Where the time of register-blocking's 4096^3 gemm goes on the H100 (issue 14:
// the matmul family against cuBLAS). Hand-written copies of what
// register-blocking emits for bench/textbook/gemm.cu (8 x 8 outputs a thread,
// 128 x 128 tiles, k step 8), each with one change, timed against cublasSgemm
// on the same product, every result compared with v0's:
//   v0        as emitted before launch bounds (145 registers: one block an SM)
//   v0 + lb   __launch_bounds__(256, 2): 127 registers, no spills, two blocks
//   v2, v1    outputs in groups of four, fragments read as float4 (BK 8 or 16)
//   prefetch  the next tile's global loads issued before the current tile's math
//   v3        v1 with __restrict__ and launch bounds
//   nvcc -O3 -arch=sm_90 -std=c++17 --extended-lambda -Xptxas -v \
//        -o blocked_gemm bench/matmul/blocked_gemm.cu -lcublas && ./blocked_gemm
// Results: bench/RESULTS.md (2026-11-27, fifth session).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#define NI 4096
#define NJ 4096
#define NK 4096
#ifndef TIMES
#define TIMES 5
#endif
#include "gemm_probe.h"

// V0: kopt's register-blocking as emitted today (thread outputs strided by 16).
__global__ void v0(float alpha, float beta, float *a, float *b, float *c) {
  __shared__ float ty_[8][132];
  __shared__ float tx_[8][128];
  float acc[8][8];
  const int tid = threadIdx.y * 16 + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + threadIdx.y + 16u * i, gx = blockIdx.x * 128u + threadIdx.x + 16u * j;
      acc[i][j] = 0;
      if (gy < NI && gx < NJ) acc[i][j] = c[gy * NJ + gx] * beta;
    }
  for (int kt = 0; kt < NK; kt += 8) {
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int e = tid + l * 256, p = e / 8, q = e % 8;
      int i = blockIdx.y * 128u + p, k = kt + q;
      ty_[q][p] = (i < NI && k < NK) ? alpha * a[i * NK + k] : 0.f;
    }
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int e = tid + l * 256, p = e % 128, q = e / 128;
      int j = blockIdx.x * 128u + p, k = kt + q;
      tx_[q][p] = (j < NJ && k < NK) ? b[k * NJ + j] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 8; ++kk) {
      float fy[8], fx[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) fy[i] = ty_[kk][threadIdx.y + 16 * i];
#pragma unroll
      for (int j = 0; j < 8; ++j) fx[j] = tx_[kk][threadIdx.x + 16 * j];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += fy[i] * fx[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + threadIdx.y + 16u * i, gx = blockIdx.x * 128u + threadIdx.x + 16u * j;
      if (gy < NI && gx < NJ) c[gy * NJ + gx] = acc[i][j];
    }
}

// V0 + lb + restrict's register-blocking as emitted today (thread outputs strided by 16).
__global__ void __launch_bounds__(256, 2) v0lbr(float alpha, float beta, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c) {
  __shared__ float ty_[8][132];
  __shared__ float tx_[8][128];
  float acc[8][8];
  const int tid = threadIdx.y * 16 + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + threadIdx.y + 16u * i, gx = blockIdx.x * 128u + threadIdx.x + 16u * j;
      acc[i][j] = 0;
      if (gy < NI && gx < NJ) acc[i][j] = c[gy * NJ + gx] * beta;
    }
  for (int kt = 0; kt < NK; kt += 8) {
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int e = tid + l * 256, p = e / 8, q = e % 8;
      int i = blockIdx.y * 128u + p, k = kt + q;
      ty_[q][p] = (i < NI && k < NK) ? alpha * a[i * NK + k] : 0.f;
    }
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int e = tid + l * 256, p = e % 128, q = e / 128;
      int j = blockIdx.x * 128u + p, k = kt + q;
      tx_[q][p] = (j < NJ && k < NK) ? b[k * NJ + j] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 8; ++kk) {
      float fy[8], fx[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) fy[i] = ty_[kk][threadIdx.y + 16 * i];
#pragma unroll
      for (int j = 0; j < 8; ++j) fx[j] = tx_[kk][threadIdx.x + 16 * j];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += fy[i] * fx[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + threadIdx.y + 16u * i, gx = blockIdx.x * 128u + threadIdx.x + 16u * j;
      if (gy < NI && gx < NJ) c[gy * NJ + gx] = acc[i][j];
    }
}

// Position of a thread's output I (of 8) along a 128 tile: groups of 4 (V1+).
__device__ __forceinline__ unsigned pos4(unsigned t, int I) { return t * 4u + 64u * (I / 4) + (I % 4); }

// V1: outputs in groups of 4 contiguous; fragments read as float4 from shared memory.
template <int BK, bool PREFETCH>
__global__ void v1(float alpha, float beta, float *a, float *b, float *c) {
  __shared__ __align__(16) float ty_[BK][128 + 4];
  __shared__ __align__(16) float tx_[BK][128];
  float acc[8][8];
  const int tid = threadIdx.y * 16 + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + pos4(threadIdx.y, i), gx = blockIdx.x * 128u + pos4(threadIdx.x, j);
      acc[i][j] = 0;
      if (gy < NI && gx < NJ) acc[i][j] = c[gy * NJ + gx] * beta;
    }
  constexpr int L = BK * 128 / 256;
  float ra[L], rb[L];
  auto loadA = [&](int kt) {
#pragma unroll
    for (int l = 0; l < L; ++l) {
      int e = tid + l * 256, p = e / BK, q = e % BK;
      int i = blockIdx.y * 128u + p, k = kt + q;
      ra[l] = (i < NI && k < NK) ? alpha * a[i * NK + k] : 0.f;
    }
  };
  auto loadB = [&](int kt) {
#pragma unroll
    for (int l = 0; l < L; ++l) {
      int e = tid + l * 256, p = e % 128, q = e / 128;
      int j = blockIdx.x * 128u + p, k = kt + q;
      rb[l] = (j < NJ && k < NK) ? b[k * NJ + j] : 0.f;
    }
  };
  auto store = [&] {
#pragma unroll
    for (int l = 0; l < L; ++l) {
      int e = tid + l * 256;
      ty_[e % BK][e / BK] = ra[l];
      tx_[e / 128][e % 128] = rb[l];
    }
  };
  if (PREFETCH) { loadA(0); loadB(0); }
  for (int kt = 0; kt < NK; kt += BK) {
    if (!PREFETCH) { loadA(kt); loadB(kt); }
    store();
    __syncthreads();
    if (PREFETCH && kt + BK < NK) { loadA(kt + BK); loadB(kt + BK); }
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float fy[8], fx[8];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float4 y4 = *reinterpret_cast<const float4 *>(&ty_[kk][threadIdx.y * 4 + 64 * h]);
        float4 x4 = *reinterpret_cast<const float4 *>(&tx_[kk][threadIdx.x * 4 + 64 * h]);
        fy[4 * h] = y4.x; fy[4 * h + 1] = y4.y; fy[4 * h + 2] = y4.z; fy[4 * h + 3] = y4.w;
        fx[4 * h] = x4.x; fx[4 * h + 1] = x4.y; fx[4 * h + 2] = x4.z; fx[4 * h + 3] = x4.w;
      }
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += fy[i] * fx[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + pos4(threadIdx.y, i), gx = blockIdx.x * 128u + pos4(threadIdx.x, j);
      if (gy < NI && gx < NJ) c[gy * NJ + gx] = acc[i][j];
    }
}

template <int BK, bool PREFETCH>
__global__ void __launch_bounds__(256, 2) v3(float alpha, float beta, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c) {
  __shared__ __align__(16) float ty_[BK][128 + 4];
  __shared__ __align__(16) float tx_[BK][128];
  float acc[8][8];
  const int tid = threadIdx.y * 16 + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + pos4(threadIdx.y, i), gx = blockIdx.x * 128u + pos4(threadIdx.x, j);
      acc[i][j] = 0;
      if (gy < NI && gx < NJ) acc[i][j] = c[gy * NJ + gx] * beta;
    }
  constexpr int L = BK * 128 / 256;
  float ra[L], rb[L];
#define LOADA(kt) _Pragma("unroll") for (int l = 0; l < L; ++l) { int e = tid + l * 256, p = e / BK, q = e % BK; int i = blockIdx.y * 128u + p, k = (kt) + q; ra[l] = (i < NI && k < NK) ? alpha * a[i * NK + k] : 0.f; }
#define LOADB(kt) _Pragma("unroll") for (int l = 0; l < L; ++l) { int e = tid + l * 256, p = e % 128, q = e / 128; int j = blockIdx.x * 128u + p, k = (kt) + q; rb[l] = (j < NJ && k < NK) ? b[k * NJ + j] : 0.f; }
  if (PREFETCH) { LOADA(0) LOADB(0) }
  for (int kt = 0; kt < NK; kt += BK) {
    if (!PREFETCH) { LOADA(kt) LOADB(kt) }
#pragma unroll
    for (int l = 0; l < L; ++l) {
      int e = tid + l * 256;
      ty_[e % BK][e / BK] = ra[l];
      tx_[e / 128][e % 128] = rb[l];
    }
    __syncthreads();
    if (PREFETCH && kt + BK < NK) { LOADA(kt + BK) LOADB(kt + BK) }
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float fy[8], fx[8];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float4 y4 = *reinterpret_cast<const float4 *>(&ty_[kk][threadIdx.y * 4 + 64 * h]);
        float4 x4 = *reinterpret_cast<const float4 *>(&tx_[kk][threadIdx.x * 4 + 64 * h]);
        fy[4 * h] = y4.x; fy[4 * h + 1] = y4.y; fy[4 * h + 2] = y4.z; fy[4 * h + 3] = y4.w;
        fx[4 * h] = x4.x; fx[4 * h + 1] = x4.y; fx[4 * h + 2] = x4.z; fx[4 * h + 3] = x4.w;
      }
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += fy[i] * fx[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + pos4(threadIdx.y, i), gx = blockIdx.x * 128u + pos4(threadIdx.x, j);
      if (gy < NI && gx < NJ) c[gy * NJ + gx] = acc[i][j];
    }
}

// V2: V1's layout with scalar fragment loads (does nvcc vectorize them itself?).
__global__ void v2(float alpha, float beta, float *a, float *b, float *c) {
  __shared__ __align__(16) float ty_[8][132];
  __shared__ __align__(16) float tx_[8][128];
  float acc[8][8];
  const int tid = threadIdx.y * 16 + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + pos4(threadIdx.y, i), gx = blockIdx.x * 128u + pos4(threadIdx.x, j);
      acc[i][j] = 0;
      if (gy < NI && gx < NJ) acc[i][j] = c[gy * NJ + gx] * beta;
    }
  for (int kt = 0; kt < NK; kt += 8) {
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int e = tid + l * 256, p = e / 8, q = e % 8;
      int i = blockIdx.y * 128u + p, k = kt + q;
      ty_[q][p] = (i < NI && k < NK) ? alpha * a[i * NK + k] : 0.f;
    }
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int e = tid + l * 256, p = e % 128, q = e / 128;
      int j = blockIdx.x * 128u + p, k = kt + q;
      tx_[q][p] = (j < NJ && k < NK) ? b[k * NJ + j] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 8; ++kk) {
      float fy[8], fx[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) fy[i] = ty_[kk][pos4(threadIdx.y, i)];
#pragma unroll
      for (int j = 0; j < 8; ++j) fx[j] = tx_[kk][pos4(threadIdx.x, j)];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += fy[i] * fx[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + pos4(threadIdx.y, i), gx = blockIdx.x * 128u + pos4(threadIdx.x, j);
      if (gy < NI && gx < NJ) c[gy * NJ + gx] = acc[i][j];
    }
}

int main() {
  size_t n = size_t(NI) * NJ;
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = float((i * 2654435761u) % 1000) / 1000.f - 0.5f;
  float *a, *b, *c, *c0, *ref;
  cudaMalloc(&a, 4 * n); cudaMalloc(&b, 4 * n); cudaMalloc(&c, 4 * n); cudaMalloc(&c0, 4 * n); cudaMalloc(&ref, 4 * n);
  cudaMemcpy(a, h.data(), 4 * n, cudaMemcpyHostToDevice);
  std::reverse(h.begin(), h.end());
  cudaMemcpy(b, h.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(c0, h.data(), 4 * n, cudaMemcpyHostToDevice);
  dim3 blk(16, 16), grd(NJ / 128, NI / 128);
  float al = 1.5f, be = 1.2f;
  float t0 = timeIt([&] { v0<<<grd, blk>>>(al, be, a, b, c); }, c, c0);
  cudaMemcpy(ref, c, 4 * n, cudaMemcpyDeviceToDevice);
  auto check = [&](const char *name, float t) {
    std::vector<float> x(n), y(n);
    cudaMemcpy(x.data(), c, 4 * n, cudaMemcpyDeviceToHost); cudaMemcpy(y.data(), ref, 4 * n, cudaMemcpyDeviceToHost);
    double md = 0; for (size_t i = 0; i < n; ++i) md = std::max(md, (double)std::fabs(x[i] - y[i]) / (1e-3 + std::fabs(y[i])));
    printf("%-28s %7.3f ms %6.1f TFLOPS  max rel diff vs v0 %.2e\n", name, t, 2.0 * NI * NJ * NK / t / 1e9, md);
  };
  check("v0 (today)", t0);
  check("v0 + lb(256,2)", timeIt([&] { v0lb<<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v0 + lb + restrict", timeIt([&] { v0lbr<<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v2 layout4 scalar lds", timeIt([&] { v2<<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v1 float4 lds BK8", timeIt([&] { v1<8, false><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v1 float4 lds BK16", timeIt([&] { v1<16, false><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v1 float4 BK8 prefetch", timeIt([&] { v1<8, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v1 float4 BK16 prefetch", timeIt([&] { v1<16, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v3 restrict lb BK8", timeIt([&] { v3<8, false><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v3 restrict lb BK8 prefetch", timeIt([&] { v3<8, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("v3 restrict lb BK16 prefetch", timeIt([&] { v3<16, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  cublasHandle_t hd; cublasCreate(&hd);
  // Row-major C = alpha A B + beta C  ==  column-major C^T = alpha B^T A^T + beta C^T.
  check("cublasSgemm", timeIt([&] { cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, NJ, NI, NK, &al, b, NJ, a, NK, &be, c, NJ); }, c, c0));
  return 0;
}
