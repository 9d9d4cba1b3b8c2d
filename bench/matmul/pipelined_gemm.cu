// Does a pipelined SIMT kernel close the gap to cuBLAS (issue 14: the matmul
// family within 1.5x of cublasSgemm, 4.03 ms for 4096^3 on the H100)? The
// kernel register-blocking emits (v0lb, gemm_probe.h: 5.31 ms) against kernels
// of the same tile (128 x 128 outputs a block of 256 threads, 8 x 8 a thread)
// that add, one at a time:
//   q1  outputs in groups of 4 (float4 fragments from shared memory), global
//       tiles read as float4 (A stored k-major, conflict-free with 4 floats of
//       padding), alpha applied once at the end
//   q2  q1 with two shared buffers: the next tile's global loads are issued
//       before the current tile's math and stored after it, one barrier a tile
//   q2 unguarded: q2 without the bounds checks of the tile loads (sizes that
//       are multiples of the tile; what a variant may do only behind a check)
//   qs  q1 and q2 with register-blocking's scalar tile loads instead (one
//       guarded element a load, alpha applied to A as it loads): what an
//       emitter can write for any operand index, contiguous or not
// BK is the k step. Every result is compared with v0lb's. What register-blocking
// emits since (qs BK8's layout, the accumulator's start added after the loop)
// and the results: bench/RESULTS.md (2026-11-28, seventh session).
//   nvcc -O3 -arch=sm_90 -std=c++17 --extended-lambda -Xptxas -v \
//        -o pipelined_gemm bench/matmul/pipelined_gemm.cu -lcublas && ./pipelined_gemm
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cublas_v2.h>
#include <vector>
#define NI 4096
#define NJ 4096
#define NK 4096
#ifndef TIMES
#define TIMES 7
#endif
#include "gemm_probe.h"

// Position of a thread's output I (of 8) along a 128 tile: groups of 4.
__device__ __forceinline__ unsigned pos4(unsigned t, int I) {
  return t * 4u + 64u * (I / 4) + (I % 4);
}

// The 8 x 8 outer products of one pair of shared tiles, the fragments read as
// float4 (a thread's outputs in groups of 4).
template <int BK>
__device__ __forceinline__ void multiplyTile(const float (&As)[BK][128 + 4],
                                             const float (&Bs)[BK][128], float (&acc)[8][8], int ty,
                                             int tx) {
#pragma unroll
  for (int kk = 0; kk < BK; ++kk) {
    float fy[8], fx[8];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float4 y4 = *reinterpret_cast<const float4 *>(&As[kk][ty * 4 + 64 * h]);
      float4 x4 = *reinterpret_cast<const float4 *>(&Bs[kk][tx * 4 + 64 * h]);
      fy[4 * h] = y4.x, fy[4 * h + 1] = y4.y, fy[4 * h + 2] = y4.z, fy[4 * h + 3] = y4.w;
      fx[4 * h] = x4.x, fx[4 * h + 1] = x4.y, fx[4 * h + 2] = x4.z, fx[4 * h + 3] = x4.w;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j)
        acc[i][j] += fy[i] * fx[j];
  }
}

// The k loop over tiles: with one buffer, load, store, wait, multiply, wait;
// with two, the next tile's loads are issued before the current tile's
// products and stored after them, one barrier a tile.
template <int BK, bool DOUBLE, class Load, class Store, class Multiply>
__device__ __forceinline__ void walkK(Load load, Store store, Multiply multiply) {
  if (DOUBLE) {
    load(0);
    store(0);
    __syncthreads();
    int s = 0;
    for (int kt = 0; kt < NK; kt += BK) {
      bool next = kt + BK < NK;
      if (next)
        load(kt + BK);
      multiply(s);
      if (next)
        store(s ^ 1);
      __syncthreads();
      s ^= 1;
    }
  } else {
    for (int kt = 0; kt < NK; kt += BK) {
      load(kt);
      store(0);
      __syncthreads();
      multiply(0);
      __syncthreads();
    }
  }
}

template <int BK, bool DOUBLE, bool GUARD>
__global__ void __launch_bounds__(256, 2) q(float alpha, float beta, const float *__restrict__ a,
                                            const float *__restrict__ b, float *__restrict__ c) {
  constexpr int Stages = DOUBLE ? 2 : 1;
  constexpr int LA = BK * 128 / 4 / 256; // float4 loads of A a thread a tile
  constexpr int LB = BK * 128 / 4 / 256; // and of B
  __shared__ __align__(16) float As[Stages][BK][128 + 4];
  __shared__ __align__(16) float Bs[Stages][BK][128];
  const int tid = threadIdx.x;
  const int ty = tid / 16, tx = tid % 16;
  const unsigned row0 = blockIdx.y * 128u, col0 = blockIdx.x * 128u;
  float acc[8][8] = {};
  float4 ra[LA], rb[LB];
  auto load = [&](int kt) {
#pragma unroll
    for (int l = 0; l < LA; ++l) {
      int e = tid + l * 256, r = e / (BK / 4), kq = (e % (BK / 4)) * 4;
      unsigned i = row0 + r;
      int k = kt + kq;
      ra[l] = (!GUARD || (i < NI && k + 3 < NK))
                  ? *reinterpret_cast<const float4 *>(&a[size_t(i) * NK + k])
                  : make_float4(0, 0, 0, 0);
    }
#pragma unroll
    for (int l = 0; l < LB; ++l) {
      int e = tid + l * 256, kr = e / 32, cq = (e % 32) * 4;
      unsigned j = col0 + cq;
      int k = kt + kr;
      rb[l] = (!GUARD || (j + 3 < NJ && k < NK))
                  ? *reinterpret_cast<const float4 *>(&b[size_t(k) * NJ + j])
                  : make_float4(0, 0, 0, 0);
    }
  };
  auto store = [&](int s) {
#pragma unroll
    for (int l = 0; l < LA; ++l) {
      int e = tid + l * 256, r = e / (BK / 4), kq = (e % (BK / 4)) * 4;
      As[s][kq][r] = ra[l].x;
      As[s][kq + 1][r] = ra[l].y;
      As[s][kq + 2][r] = ra[l].z;
      As[s][kq + 3][r] = ra[l].w;
    }
#pragma unroll
    for (int l = 0; l < LB; ++l) {
      int e = tid + l * 256, kr = e / 32, cq = (e % 32) * 4;
      *reinterpret_cast<float4 *>(&Bs[s][kr][cq]) = rb[l];
    }
  };
  walkK<BK, DOUBLE>(load, store, [&](int s) { multiplyTile<BK>(As[s], Bs[s], acc, ty, tx); });
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    unsigned gy = row0 + pos4(ty, i);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      unsigned gx = col0 + pos4(tx, 4 * h);
      if (gy < NI && gx + 3 < NJ) {
        float4 *p = reinterpret_cast<float4 *>(&c[size_t(gy) * NJ + gx]);
        float4 old = *p;
        *p = make_float4(
            alpha * acc[i][4 * h] + beta * old.x, alpha * acc[i][4 * h + 1] + beta * old.y,
            alpha * acc[i][4 * h + 2] + beta * old.z, alpha * acc[i][4 * h + 3] + beta * old.w);
      }
    }
  }
}

template <int BK, bool DOUBLE>
__global__ void __launch_bounds__(256, 2) qs(float alpha, float beta, const float *__restrict__ a,
                                             const float *__restrict__ b, float *__restrict__ c) {
  constexpr int Stages = DOUBLE ? 2 : 1;
  constexpr int L = BK * 128 / 256; // elements of A, and of B, a thread loads a tile
  __shared__ __align__(16) float As[Stages][BK][128 + 4];
  __shared__ __align__(16) float Bs[Stages][BK][128];
  const int tid = threadIdx.x;
  const int ty = tid / 16, tx = tid % 16;
  const unsigned row0 = blockIdx.y * 128u, col0 = blockIdx.x * 128u;
  float acc[8][8] = {};
  float ra[L], rb[L];
  auto load = [&](int kt) {
#pragma unroll
    for (int l = 0; l < L; ++l) {
      int e = tid + l * 256;
      unsigned i = row0 + e / BK, j = col0 + e % 128;
      int ka = kt + e % BK, kb = kt + e / 128;
      ra[l] = (i < NI && ka < NK) ? alpha * a[i * NK + ka] : 0.f;
      rb[l] = (j < NJ && kb < NK) ? b[kb * NJ + j] : 0.f;
    }
  };
  auto store = [&](int s) {
#pragma unroll
    for (int l = 0; l < L; ++l) {
      int e = tid + l * 256;
      As[s][e % BK][e / BK] = ra[l];
      Bs[s][e / 128][e % 128] = rb[l];
    }
  };
  walkK<BK, DOUBLE>(load, store, [&](int s) { multiplyTile<BK>(As[s], Bs[s], acc, ty, tx); });
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = row0 + pos4(ty, i), gx = col0 + pos4(tx, j);
      if (gy < NI && gx < NJ)
        c[gy * NJ + gx] = acc[i][j] + beta * c[gy * NJ + gx];
    }
}

int main() {
  size_t n = size_t(NI) * NJ;
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i)
    h[i] = float((i * 2654435761u) % 1000) / 1000.f - 0.5f;
  float *a, *b, *c, *c0, *ref;
  cudaMalloc(&a, 4 * n);
  cudaMalloc(&b, 4 * n);
  cudaMalloc(&c, 4 * n);
  cudaMalloc(&c0, 4 * n);
  cudaMalloc(&ref, 4 * n);
  cudaMemcpy(a, h.data(), 4 * n, cudaMemcpyHostToDevice);
  std::reverse(h.begin(), h.end());
  cudaMemcpy(b, h.data(), 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(c0, h.data(), 4 * n, cudaMemcpyHostToDevice);
  dim3 blk2(16, 16), blk(256), grd(NJ / 128, NI / 128);
  float al = 1.5f, be = 1.2f;
  float t0 = timeIt([&] { v0lb<<<grd, blk2>>>(al, be, a, b, c); }, c, c0);
  cudaMemcpy(ref, c, 4 * n, cudaMemcpyDeviceToDevice);
  auto check = [&](const char *name, float t) {
    std::vector<float> x(n), y(n);
    cudaMemcpy(x.data(), c, 4 * n, cudaMemcpyDeviceToHost);
    cudaMemcpy(y.data(), ref, 4 * n, cudaMemcpyDeviceToHost);
    double md = 0;
    for (size_t i = 0; i < n; ++i)
      md = std::max(md, (double)std::fabs(x[i] - y[i]) / (1e-3 + std::fabs(y[i])));
    printf("%-34s %7.3f ms %6.1f TFLOPS  max rel diff vs v0lb %.2e\n", name, t,
           2.0 * NI * NJ * NK / t / 1e9, md);
  };
  check("v0lb (register-blocking today)", t0);
  check("q1 BK8 (float4, one buffer)",
        timeIt([&] { q<8, false, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("q1 BK16", timeIt([&] { q<16, false, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("q2 BK8 (two buffers)",
        timeIt([&] { q<8, true, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("q2 BK16", timeIt([&] { q<16, true, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("qs BK8 (scalar loads, one buffer)",
        timeIt([&] { qs<8, false><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("qs BK8 two buffers", timeIt([&] { qs<8, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("qs BK16 two buffers", timeIt([&] { qs<16, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("q2 BK8 unguarded",
        timeIt([&] { q<8, true, false><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("q2 BK16 unguarded",
        timeIt([&] { q<16, true, false><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  cublasHandle_t hd;
  cublasCreate(&hd);
  // Row-major C = alpha A B + beta C  ==  column-major C^T = alpha B^T A^T + beta C^T.
  check("cublasSgemm", timeIt(
                           [&] {
                             cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, NJ, NI, NK, &al, b, NJ, a,
                                         NK, &be, c, NJ);
                           },
                           c, c0));
  return 0;
}
