// KernelBench level 1, 3_Batched_matrix_multiplication: C[b] = A[b] B[b] for 128 batches,
// A[b] 512 x 1024, B[b] 1024 x 2048. The check recomputes 2048 sampled elements of C.
#include "bench_util.h"

#define BATCH 128
#define M 512
#define K 1024
#define N 2048

#pragma kopt optimize launch(grid: (n + 15) / 16, (m + 15) / 16, batch; block: 16, 16) \
    args(batch = BATCH, m = M, n = N, k = K) \
    buffers(a[batch * m * k] in, b[batch * k * n] in, c[batch * m * n] out) \
    tol(rtol = 1e-3, atol = 2e-3)
__global__ void matmul_batched(int batch, int m, int n, int k, const float *a, const float *b,
                               float *c) {
  int bat = blockIdx.z;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (bat < batch && row < m && col < n) {
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
      sum += a[(bat * m + row) * k + p] * b[(bat * k + p) * n + col];
    c[(bat * m + row) * n + col] = sum;
  }
}

int main() {
  float *a = bench::uniformBuffer(size_t(BATCH) * M * K, 1);
  float *b = bench::uniformBuffer(size_t(BATCH) * K * N, 2);
  float *c = bench::deviceAlloc<float>(size_t(BATCH) * M * N);
  dim3 grid((N + 15) / 16, (M + 15) / 16, BATCH), block(16, 16);
  float ms = bench::medianMs([&] { matmul_batched<<<grid, block>>>(BATCH, M, N, K, a, b, c); });
  auto ref = [](size_t i) {
    size_t bat = i / (size_t(M) * N), row = i / N % M, col = i % N;
    double sum = 0;
    for (size_t p = 0; p < K; p++)
      sum += double(bench::uniformAt(1, (bat * M + row) * K + p)) *
             bench::uniformAt(2, (bat * K + p) * N + col);
    return sum;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(c, size_t(BATCH) * M * N, 2048, ref, 1e-3, 2e-3));
}
