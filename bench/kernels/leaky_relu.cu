// KernelBench level 1, 20_LeakyReLU: y = x > 0 ? x : slope * x (slope 0.01), 4096 x 393216.
#include "bench_util.h"

#define N (4096 * 393216)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, slope = 0.01f) \
    buffers(x[n] in, y[n] out)
__global__ void leaky_relu(int n, float slope, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = v > 0.0f ? v : slope * v;
  }
}

int main() {
  float *x = bench::uniformBuffer(N, 1);
  float *y = bench::deviceAlloc<float>(N);
  float ms = bench::medianMs([&] { leaky_relu<<<(N + 255) / 256, 256>>>(N, 0.01f, x, y); });
  auto ref = [](size_t i) {
    double v = bench::uniformAt(1, i);
    return v > 0 ? v : double(0.01f) * v;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, N, 1 << 20, ref, 1e-6, 1e-7));
}
