// KernelBench level 1, 1_Square_matrix_multiplication_: C = A B, all 4096 x 4096.
// The check recomputes 2048 sampled elements of C in double.
#include "bench_util.h"

#define N 4096

#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) args(n = N) \
    buffers(a[n * n] in, b[n * n] in, c[n * n] out) tol(rtol = 1e-3, atol = 2e-3)
__global__ void matmul_square(int n, const float *a, const float *b, float *c) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
      sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

int main() {
  float *a = bench::uniformBuffer(size_t(N) * N, 1);
  float *b = bench::uniformBuffer(size_t(N) * N, 2);
  float *c = bench::deviceAlloc<float>(size_t(N) * N);
  dim3 grid((N + 15) / 16, (N + 15) / 16), block(16, 16);
  float ms = bench::medianMs([&] { matmul_square<<<grid, block>>>(N, a, b, c); });
  auto ref = [](size_t i) {
    size_t row = i / N, col = i % N;
    double sum = 0;
    for (size_t k = 0; k < N; k++)
      sum += double(bench::uniformAt(1, row * N + k)) * bench::uniformAt(2, k * N + col);
    return sum;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(c, size_t(N) * N, 2048, ref, 1e-3, 2e-3));
}
