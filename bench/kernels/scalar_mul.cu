// KernelBench level 1, 5_Matrix_scalar_multiplication: C = A * s (s 3.14), 65536 x 16384.
#include "bench_util.h"

#define N (65536 * 16384)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, s = 3.14f) \
    buffers(x[n] in, y[n] out)
__global__ void scalar_mul(int n, float s, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] * s;
  }
}

int main() {
  float *x = bench::uniformBuffer(N, 1);
  float *y = bench::deviceAlloc<float>(N);
  float ms = bench::medianMs([&] { scalar_mul<<<(N + 255) / 256, 256>>>(N, 3.14f, x, y); });
  auto ref = [](size_t i) {
    double v = bench::uniformAt(1, i);
    return v * double(3.14f);
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, N, 1 << 20, ref, 1e-6, 0.0));
}
