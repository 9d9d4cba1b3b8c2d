// KernelBench level 1, 10_3D_tensor_matrix_multiplication: C[b] = A[b] B for a
// (16, 1024, 2048) tensor A and a 2048 x 768 matrix B. The check recomputes 2048 samples.
#include "bench_util.h"

#define BATCH 16
#define M 1024
#define K 2048
#define N 768

#pragma kopt optimize launch(grid: (n + 15) / 16, (m + 15) / 16, batch; block: 16, 16) \
    args(batch = BATCH, m = M, n = N, k = K) \
    buffers(a[batch * m * k] in, b[k * n] in, c[batch * m * n] out) \
    tol(rtol = 1e-3, atol = 2e-3)
__global__ void matmul_3d(int batch, int m, int n, int k, const float *a, const float *b,
                          float *c) {
  int bat = blockIdx.z;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (bat < batch && row < m && col < n) {
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
      sum += a[(bat * m + row) * k + p] * b[p * n + col];
    c[(bat * m + row) * n + col] = sum;
  }
}

int main() {
  float *a = bench::uniformBuffer(size_t(BATCH) * M * K, 1);
  float *b = bench::uniformBuffer(size_t(K) * N, 2);
  float *c = bench::deviceAlloc<float>(size_t(BATCH) * M * N);
  dim3 grid((N + 15) / 16, (M + 15) / 16, BATCH), block(16, 16);
  float ms = bench::medianMs([&] { matmul_3d<<<grid, block>>>(BATCH, M, N, K, a, b, c); });
  auto ref = [](size_t i) {
    size_t row = i / N, col = i % N; // row counts over all batches
    double sum = 0;
    for (size_t p = 0; p < K; p++)
      sum += double(bench::uniformAt(1, row * K + p)) * bench::uniformAt(2, p * N + col);
    return sum;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(c, size_t(BATCH) * M * N, 2048, ref, 1e-3, 2e-3));
}
