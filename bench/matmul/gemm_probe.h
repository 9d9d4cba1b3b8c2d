// What the matmul probes share (blocked_gemm.cu, tensor_core_gemm.cu):
// register-blocking's kernel for bench/textbook/gemm.cu as it emits it today
// (8 x 8 outputs a thread strided by 16, 128 x 128 tiles, k step 8, launch
// bounds), and the median time of a product over TIMES runs, C restored from
// c0 before each. The includer defines NI, NJ, NK and TIMES.
#pragma once

#include <algorithm>
#include <vector>

// register-blocking as emitted, with its launch bounds: the baseline to beat.
__global__ void __launch_bounds__(256, 2)
    v0lb(float alpha, float beta, float *a, float *b, float *c) {
  __shared__ float ty_[8][132];
  __shared__ float tx_[8][128];
  float acc[8][8];
  const int tid = threadIdx.y * 16 + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + threadIdx.y + 16u * i,
               gx = blockIdx.x * 128u + threadIdx.x + 16u * j;
      acc[i][j] = 0;
      if (gy < NI && gx < NJ)
        acc[i][j] = c[gy * NJ + gx] * beta;
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
      for (int i = 0; i < 8; ++i)
        fy[i] = ty_[kk][threadIdx.y + 16 * i];
#pragma unroll
      for (int j = 0; j < 8; ++j)
        fx[j] = tx_[kk][threadIdx.x + 16 * j];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
          acc[i][j] += fy[i] * fx[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      unsigned gy = blockIdx.y * 128u + threadIdx.y + 16u * i,
               gx = blockIdx.x * 128u + threadIdx.x + 16u * j;
      if (gy < NI && gx < NJ)
        c[gy * NJ + gx] = acc[i][j];
    }
}

template <typename F> float timeIt(F f, float *c, float *c0) {
  cudaEvent_t s, e;
  cudaEventCreate(&s);
  cudaEventCreate(&e);
  std::vector<float> ms;
  for (int r = 0; r < TIMES; ++r) {
    cudaMemcpy(c, c0, sizeof(float) * NI * NJ, cudaMemcpyDeviceToDevice);
    cudaEventRecord(s);
    f();
    cudaEventRecord(e);
    cudaEventSynchronize(e);
    float t;
    cudaEventElapsedTime(&t, s, e);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
