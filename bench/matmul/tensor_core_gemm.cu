// Tensor cores for the blocked product (issue 14: the matmul family within
// 1.5x of cuBLAS fp32). Hand-written copies of what a tensor-core variant of
// register-blocking would emit for bench/textbook/gemm.cu: the same staging of
// both operands in shared memory (k-major tiles, 128 x 128 outputs a block of
// 16 x 16 threads, loads as register-blocking writes them), the same prologue
// and epilogue for each thread's 8 x 8 positions, and in between wmma on tf32
// fragments: 8 warps of 2 x 4 fragments (m16n16k8). The accumulator tiles go
// back to each thread's positions through a small shared scratch.
//   tc<BK, 3>  3xTF32: a = hi + lo, hi*hi + hi*lo + lo*hi (about fp32's error)
//   tc<BK, 1>  one tf32 product (10-bit mantissa)
//   partial    each tile's sums start from zero and are added in registers:
//              the tensor cores' own accumulation truncates, and over 4096
//              products that error grows past fp32's by far
// Each result is compared with the naive kernel's (what kopt's verifier
// compares with) and with a float64 product, against the default float
// tolerance (rtol 1e-4, atol 1e-5) and gemm.cu's (1e-3, 1e-3).
//   nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v -o tensor_core_gemm \
//        bench/matmul/tensor_core_gemm.cu -lcublas && ./tensor_core_gemm
// Results: bench/RESULTS.md (2026-11-28).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mma.h>
#include <vector>
#include <cublas_v2.h>
#ifndef N
#define N 4096
#endif
#define NI N
#define NJ N
#define NK N
#ifndef TIMES
#define TIMES 5
#endif
#include "gemm_probe.h"

__global__ void naive(float alpha, float beta, float *a, float *b, float *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NI && j < NJ) {
    c[i * NJ + j] *= beta;
    for (int k = 0; k < NK; k++) c[i * NJ + j] += alpha * a[i * NK + k] * b[k * NJ + j];
  }
}

__global__ void reference(double alpha, double beta, const float *a, const float *b, const float *c0, double *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NI && j < NJ) {
    double s = 0;
    for (int k = 0; k < NK; k++) s += double(a[i * NK + k]) * b[k * NJ + j];
    c[i * NJ + j] = alpha * s + beta * c0[i * NJ + j];
  }
}

namespace wmma = nvcuda::wmma;
using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::col_major>;
using FragB = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragC = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;

template <typename Frag> __device__ void split(Frag &Hi, Frag &Lo) {
#pragma unroll
  for (int t = 0; t < Hi.num_elements; ++t) {
    float v = Hi.x[t], h = wmma::__float_to_tf32(v);
    Hi.x[t] = h;
    Lo.x[t] = wmma::__float_to_tf32(v - h);
  }
}
template <typename Frag> __device__ void round(Frag &F) {
#pragma unroll
  for (int t = 0; t < F.num_elements; ++t) F.x[t] = wmma::__float_to_tf32(F.x[t]);
}

template <int BK, int SPLIT, int PAD, int MINB, bool PARTIAL = false>
__global__ void __launch_bounds__(256, MINB) tc(float alpha, float beta, float *a, float *b, float *c) {
  __shared__ __align__(32) float ty_[BK][128 + PAD];
  __shared__ __align__(32) float tx_[BK][128 + PAD];
  __shared__ __align__(32) float scratch[8][256];
  const int tid = threadIdx.y * 16 + threadIdx.x;
  const int warp = tid / 32, wy = warp / 2, wx = warp % 2; // 32 rows x 64 columns a warp
  FragC cf[2][4];
#pragma unroll
  for (int fi = 0; fi < 2; ++fi)
#pragma unroll
    for (int fj = 0; fj < 4; ++fj) wmma::fill_fragment(cf[fi][fj], 0.0f);
  FragC total[PARTIAL ? 2 : 1][PARTIAL ? 4 : 1];
  if (PARTIAL)
#pragma unroll
    for (int fi = 0; fi < 2; ++fi)
#pragma unroll
      for (int fj = 0; fj < 4; ++fj) wmma::fill_fragment(total[fi][fj], 0.0f);
  for (int kt = 0; kt < NK; kt += BK) {
#pragma unroll
    for (int l = 0; l < BK / 2; ++l) {
      int e = tid + l * 256, p = e / BK, q = e % BK;
      int i = blockIdx.y * 128u + p, k = kt + q;
      ty_[q][p] = (i < NI && k < NK) ? alpha * a[i * NK + k] : 0.f;
    }
#pragma unroll
    for (int l = 0; l < BK / 2; ++l) {
      int e = tid + l * 256, p = e % 128, q = e / 128;
      int j = blockIdx.x * 128u + p, k = kt + q;
      tx_[q][p] = (j < NJ && k < NK) ? b[k * NJ + j] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
      FragA ah[2], al[2];
      FragB bh[4], bl[4];
#pragma unroll
      for (int fi = 0; fi < 2; ++fi) {
        wmma::load_matrix_sync(ah[fi], &ty_[kk][wy * 32 + fi * 16], 128 + PAD);
        if (SPLIT == 3) split(ah[fi], al[fi]); else round(ah[fi]);
      }
#pragma unroll
      for (int fj = 0; fj < 4; ++fj) {
        wmma::load_matrix_sync(bh[fj], &tx_[kk][wx * 64 + fj * 16], 128 + PAD);
        if (SPLIT == 3) split(bh[fj], bl[fj]); else round(bh[fj]);
      }
#pragma unroll
      for (int fi = 0; fi < 2; ++fi)
#pragma unroll
        for (int fj = 0; fj < 4; ++fj) {
          if (SPLIT == 3) {
            wmma::mma_sync(cf[fi][fj], al[fi], bh[fj], cf[fi][fj]);
            wmma::mma_sync(cf[fi][fj], ah[fi], bl[fj], cf[fi][fj]);
          }
          wmma::mma_sync(cf[fi][fj], ah[fi], bh[fj], cf[fi][fj]);
        }
    }
    __syncthreads();
    if (PARTIAL) { // Sums of BK products, added in registers (rounded to nearest).
#pragma unroll
      for (int fi = 0; fi < 2; ++fi)
#pragma unroll
        for (int fj = 0; fj < 4; ++fj) {
#pragma unroll
          for (int t = 0; t < total[fi][fj].num_elements; ++t) total[fi][fj].x[t] += cf[fi][fj].x[t];
          wmma::fill_fragment(cf[fi][fj], 0.0f);
        }
    }
  }
  if (PARTIAL)
#pragma unroll
    for (int fi = 0; fi < 2; ++fi)
#pragma unroll
      for (int fj = 0; fj < 4; ++fj) cf[fi][fj] = total[fi][fj];
  // The k loop writes nothing but its sums, so each position's start (the
  // code before the loop) runs after it, and the loop holds no accumulators.
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + threadIdx.y + 16u * i, gx = blockIdx.x * 128u + threadIdx.x + 16u * j;
      acc[i][j] = 0;
      if (gy < NI && gx < NJ) acc[i][j] = c[gy * NJ + gx] * beta;
    }
  // Fragment (fi, fj) of warp w is the block's 16 x 16 tile (2 wy + fi, 4 wx + fj):
  // element (ty, tx) of it is this thread's position (that tile's row, column).
#pragma unroll
  for (int fi = 0; fi < 2; ++fi)
#pragma unroll
    for (int fj = 0; fj < 4; ++fj) {
      wmma::store_matrix_sync(scratch[warp], cf[fi][fj], 16, wmma::mem_row_major);
      __syncthreads();
#pragma unroll
      for (int w = 0; w < 8; ++w) acc[(w / 2) * 2 + fi][(w % 2) * 4 + fj] += scratch[w][threadIdx.y * 16 + threadIdx.x];
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

int main() {
  size_t n = size_t(NI) * NJ;
  std::vector<float> h(n);
  // Uniform in [-1, 1), as kopt's generator draws floats.
  unsigned long long st = 88172645463325252ull;
  auto next = [&] { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return float((st >> 40) * 0x1.0p-24) * 2.f - 1.f; };
  float *a, *b, *c, *c0, *orig; double *ref;
  cudaMalloc(&a, 4 * n); cudaMalloc(&b, 4 * n); cudaMalloc(&c, 4 * n); cudaMalloc(&c0, 4 * n); cudaMalloc(&orig, 4 * n);
  cudaMalloc(&ref, 8 * n);
  for (float *p : {a, b, c0}) {
    for (auto &x : h) x = next();
    cudaMemcpy(p, h.data(), 4 * n, cudaMemcpyHostToDevice);
  }
  float al = 1.5f, be = 1.2f;
  dim3 nb(32, 8), ng((NJ + 31) / 32, (NI + 7) / 8);
  reference<<<ng, nb>>>(al, be, a, b, c0, ref);
  float tn = timeIt([&] { naive<<<ng, nb>>>(al, be, a, b, c); }, c, c0);
  cudaMemcpy(orig, c, 4 * n, cudaMemcpyDeviceToDevice);
  std::vector<float> o(n), x(n);
  std::vector<double> r(n);
  cudaMemcpy(o.data(), orig, 4 * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(r.data(), ref, 8 * n, cudaMemcpyDeviceToHost);
  auto check = [&](const char *name, float t) {
    cudaError_t err = cudaDeviceSynchronize();
    cudaMemcpy(x.data(), c, 4 * n, cudaMemcpyDeviceToHost);
    double worst64 = 0, ratioDefault = 0, ratioLoose = 0;
    for (size_t i = 0; i < n; ++i) {
      worst64 = std::max(worst64, std::fabs(x[i] - r[i]) / (1e-3 + std::fabs(r[i])));
      double d = std::fabs(double(x[i]) - o[i]);
      ratioDefault = std::max(ratioDefault, d / (1e-5 + 1e-4 * std::fabs(o[i])));
      ratioLoose = std::max(ratioLoose, d / (1e-3 + 1e-3 * std::fabs(o[i])));
    }
    printf("%-24s %8.3f ms %6.1f TFLOPS  vs f64 %.2e  vs naive: %6.2f of default tol, %6.3f of 1e-3 %s\n", name, t,
           2.0 * NI * NJ * NK / t / 1e9, worst64, ratioDefault, ratioLoose, err ? cudaGetErrorString(err) : "");
  };
  check("naive", tn);
  dim3 blk(16, 16), grd((NJ + 127) / 128, (NI + 127) / 128);
  check("register-blocking", timeIt([&] { v0lb<<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 3xtf32 BK16", timeIt([&] { tc<16, 3, 4, 1><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 3xtf32 BK32", timeIt([&] { tc<32, 3, 4, 1><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 3xtf32 BK32 pad8", timeIt([&] { tc<32, 3, 8, 1><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 3xtf32 BK16 lb2", timeIt([&] { tc<16, 3, 4, 2><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 3xtf32 BK32 lb2", timeIt([&] { tc<32, 3, 4, 2><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 3xtf32 BK32 partial", timeIt([&] { tc<32, 3, 4, 1, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 3xtf32 BK16 partial", timeIt([&] { tc<16, 3, 4, 1, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 1xtf32 BK32 partial", timeIt([&] { tc<32, 1, 4, 1, true><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 1xtf32 BK16", timeIt([&] { tc<16, 1, 4, 1><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 1xtf32 BK32", timeIt([&] { tc<32, 1, 4, 1><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  check("tc 1xtf32 BK32 lb2", timeIt([&] { tc<32, 1, 4, 2><<<grd, blk>>>(al, be, a, b, c); }, c, c0));
  cublasHandle_t hd; cublasCreate(&hd);
  // Row-major C = alpha A B + beta C  ==  column-major C^T = alpha B^T A^T + beta C^T.
  check("cublasSgemm", timeIt([&] { cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, NJ, NI, NK, &al, b, NJ, a, NK, &be, c, NJ); }, c, c0));
  cublasSetMathMode(hd, CUBLAS_TF32_TENSOR_OP_MATH);
  check("cublasSgemm tf32", timeIt([&] { cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, NJ, NI, NK, &al, b, NJ, a, NK, &be, c, NJ); }, c, c0));
  return 0;
}
