// KernelBench level 1, 17_Matmul_with_transposed_B: C (M x N) = A B^T where A is M x K and
// B is stored N x K. Shape: M 512 here (KernelBench: 2048), N 4096, K 8192: each thread
// walks its own row of B, so the naive kernel is several times slower than C = A B, and
// a quarter of the rows keeps it near the others. The check recomputes 2048 samples.
#include "bench_util.h"

#define M 512
#define K 8192
#define N 4096

#pragma kopt optimize launch(grid: (n + 15) / 16, (m + 15) / 16; block: 16, 16) \
    args(m = M, n = N, k = K) buffers(a[m * k] in, b[n * k] in, c[m * n] out) \
    tol(rtol = 1e-3, atol = 4e-3)
__global__ void matmul_transposed_b(int m, int n, int k, const float *a, const float *b,
                                    float *c) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
      sum += a[row * k + p] * b[col * k + p];
    c[row * n + col] = sum;
  }
}

int main() {
  float *a = bench::uniformBuffer(size_t(M) * K, 1);
  float *b = bench::uniformBuffer(size_t(N) * K, 2);
  float *c = bench::deviceAlloc<float>(size_t(M) * N);
  dim3 grid((N + 15) / 16, (M + 15) / 16), block(16, 16);
  float ms = bench::medianMs([&] { matmul_transposed_b<<<grid, block>>>(M, N, K, a, b, c); });
  auto ref = [](size_t i) {
    size_t row = i / N, col = i % N;
    double sum = 0;
    for (size_t p = 0; p < K; p++)
      sum += double(bench::uniformAt(1, row * K + p)) * bench::uniformAt(2, col * K + p);
    return sum;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(c, size_t(M) * N, 2048, ref, 1e-3, 4e-3));
}
