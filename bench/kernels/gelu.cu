// KernelBench level 1, 26_GELU_: y = 0.5 x (1 + erf(x / sqrt(2))) (exact GELU), 4096 x 393216.
#include "bench_util.h"

#define N (4096 * 393216)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N) \
    buffers(x[n] in, y[n] out)
__global__ void gelu(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f));
  }
}

int main() {
  float *x = bench::uniformBuffer(N, 1);
  float *y = bench::deviceAlloc<float>(N);
  float ms = bench::medianMs([&] { gelu<<<(N + 255) / 256, 256>>>(N, x, y); });
  auto ref = [](size_t i) {
    double v = bench::uniformAt(1, i);
    return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, N, 1 << 20, ref, 1e-5, 1e-6));
}
