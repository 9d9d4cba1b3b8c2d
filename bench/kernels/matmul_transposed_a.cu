// KernelBench level 1, 16_Matmul_with_transposed_A: C (M x N) = A^T B where A is stored
// K x M (8192 x 2048) and B is K x N (8192 x 4096). The check recomputes 2048 samples.
#include "bench_util.h"

#define M 2048
#define K 8192
#define N 4096

#pragma kopt optimize launch(grid: (n + 15) / 16, (m + 15) / 16; block: 16, 16) \
    args(m = M, n = N, k = K) buffers(a[k * m] in, b[k * n] in, c[m * n] out) \
    tol(rtol = 1e-3, atol = 4e-3)
__global__ void matmul_transposed_a(int m, int n, int k, const float *a, const float *b,
                                    float *c) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
      sum += a[p * m + row] * b[p * n + col];
    c[row * n + col] = sum;
  }
}

int main() {
  float *a = bench::uniformBuffer(size_t(K) * M, 1);
  float *b = bench::uniformBuffer(size_t(K) * N, 2);
  float *c = bench::deviceAlloc<float>(size_t(M) * N);
  dim3 grid((N + 15) / 16, (M + 15) / 16), block(16, 16);
  float ms = bench::medianMs([&] { matmul_transposed_a<<<grid, block>>>(M, N, K, a, b, c); });
  auto ref = [](size_t i) {
    size_t row = i / N, col = i % N;
    double sum = 0;
    for (size_t p = 0; p < K; p++)
      sum += double(bench::uniformAt(1, p * M + row)) * bench::uniformAt(2, p * N + col);
    return sum;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(c, size_t(M) * N, 2048, ref, 1e-3, 4e-3));
}
