// KernelBench level 1, 25_Swish: y = x * sigmoid(x), 4096 x 393216.
#include "bench_util.h"

#define N (4096 * 393216)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N) \
    buffers(x[n] in, y[n] out)
__global__ void swish(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = v / (1.0f + expf(-v));
  }
}

int main() {
  float *x = bench::uniformBuffer(N, 1);
  float *y = bench::deviceAlloc<float>(N);
  float ms = bench::medianMs([&] { swish<<<(N + 255) / 256, 256>>>(N, x, y); });
  auto ref = [](size_t i) {
    double v = bench::uniformAt(1, i);
    return v / (1.0 + std::exp(-v));
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, N, 1 << 20, ref, 1e-5, 1e-6));
}
