// A naive dense layer: C = A B, then y = relu(C * scale + bias). Both kernels
// are marked for kopt; the build uses the verified variants from kopt-cache/.
#include "check.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#define N 2048

#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) args(n = N) \
    buffers(a[n * n] in, b[n * n] in, c[n * n] out) tol(rtol = 1e-3, atol = 1e-3)
__global__ void matmul(int n, const float *a, const float *b, float *c) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
      sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

#pragma kopt optimize launch(grid: (rows * cols + 255) / 256; block: 256) \
    args(rows = N, cols = N, scale = 0.5f) buffers(x[rows * cols] in, bias[cols] in, y[rows * cols] out)
__global__ void bias_relu(int rows, int cols, float scale, const float *x, const float *bias,
                          float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) {
    float v = x[i] * scale + bias[i % cols];
    y[i] = v > 0.0f ? v : 0.0f;
  }
}

int main() {
  const size_t count = size_t(N) * N;
  std::vector<float> a(count), b(count), bias(N), y(count), c(count);
  for (size_t i = 0; i < count; ++i) {
    a[i] = float((i * 37) % 101) / 101.0f - 0.5f;
    b[i] = float((i * 53) % 97) / 97.0f - 0.5f;
  }
  for (int i = 0; i < N; ++i)
    bias[i] = float(i % 13) / 13.0f - 0.5f;
  float *da, *db, *dc, *dbias, *dy;
  if (cudaMalloc(&da, count * 4) != cudaSuccess || cudaMalloc(&db, count * 4) != cudaSuccess ||
      cudaMalloc(&dc, count * 4) != cudaSuccess || cudaMalloc(&dbias, N * 4) != cudaSuccess ||
      cudaMalloc(&dy, count * 4) != cudaSuccess) {
    std::fprintf(stderr, "app: cudaMalloc failed (no GPU?)\n");
    return 1;
  }
  cudaMemcpy(da, a.data(), count * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), count * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dbias, bias.data(), N * 4, cudaMemcpyHostToDevice);

  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  matmul<<<dim3((N + 15) / 16, (N + 15) / 16), dim3(16, 16)>>>(N, da, db, dc);
  bias_relu<<<(N * N + 255) / 256, 256>>>(N, N, 0.5f, dc, dbias, dy);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  if (cudaGetLastError() != cudaSuccess) {
    std::fprintf(stderr, "app: a kernel failed\n");
    return 1;
  }
  cudaMemcpy(c.data(), dc, count * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(y.data(), dy, count * 4, cudaMemcpyDeviceToHost);
  double e1 = matmulError(a.data(), b.data(), c.data(), N);
  double e2 = biasReluError(c.data(), bias.data(), y.data(), N, N, 0.5f);
  bool ok = e1 < 1e-3 && e2 < 1e-5;
  std::printf("app: %s (matmul error %.2e, bias_relu error %.2e), %.3f ms\n",
              ok ? "results correct" : "RESULTS WRONG", e1, e2, ms);
  return ok ? 0 : 1;
}
