// KernelBench level 1, 4_Matrix_vector_multiplication_: y = A x, one thread per row.
// Shape: A is 2048 x 262144 here (KernelBench: 2048 x 1048576, an 8 GiB A whose element
// count overflows a 32-bit index); the naive kernel scales linearly in K. The check
// recomputes 256 sampled rows in double.
#include "bench_util.h"

#define M 2048
#define K 262144

#pragma kopt optimize launch(grid: (m + 255) / 256; block: 256) args(m = M, k = K) \
    buffers(a[m * k] in, x[k] in, y[m] out) tol(rtol = 1e-3, atol = 5e-2)
__global__ void matvec(int m, int k, const float *a, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
      sum += a[(size_t)row * k + p] * x[p];
    y[row] = sum;
  }
}

int main() {
  float *a = bench::uniformBuffer(size_t(M) * K, 1);
  float *x = bench::uniformBuffer(K, 2);
  float *y = bench::deviceAlloc<float>(M);
  float ms = bench::medianMs([&] { matvec<<<(M + 255) / 256, 256>>>(M, K, a, x, y); });
  auto ref = [](size_t row) {
    double sum = 0;
    for (size_t p = 0; p < K; p++)
      sum += double(bench::uniformAt(1, row * K + p)) * bench::uniformAt(2, p);
    return sum;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, M, 256, ref, 1e-3, 5e-2));
}
