// KernelBench level 1, 12_Matmul_with_diagonal_matrices_: C = diag(a) B, that is
// C[i][j] = a[i] B[i][j], with a of 4096 and B 4096 x 4096.
#include "bench_util.h"

#define N 4096

#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) args(n = N) \
    buffers(a[n] in, b[n * n] in, c[n * n] out)
__global__ void matmul_diag(int n, const float *a, const float *b, float *c) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n)
    c[row * n + col] = a[row] * b[row * n + col];
}

int main() {
  float *a = bench::uniformBuffer(N, 1);
  float *b = bench::uniformBuffer(size_t(N) * N, 2);
  float *c = bench::deviceAlloc<float>(size_t(N) * N);
  dim3 grid((N + 15) / 16, (N + 15) / 16), block(16, 16);
  float ms = bench::medianMs([&] { matmul_diag<<<grid, block>>>(N, a, b, c); });
  auto ref = [](size_t i) {
    return double(bench::uniformAt(1, i / N)) * bench::uniformAt(2, i);
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(c, size_t(N) * N, 1 << 20, ref, 1e-6, 0.0));
}
