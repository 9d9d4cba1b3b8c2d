// KernelBench level 1, 32_HardTanh: y = clamp(x, lo, hi) (lo -1, hi 1), 4096 x 393216.
// The host's inputs lie in [-2, 2) so that both clamps take effect.
#include "bench_util.h"

#define N (4096 * 393216)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, lo = -1.0f, hi = 1.0f) \
    buffers(x[n] in, y[n] out)
__global__ void hardtanh(int n, float lo, float hi, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    if (v < lo)
      v = lo;
    if (v > hi)
      v = hi;
    y[i] = v;
  }
}

int main() {
  float *x = bench::uniformBuffer(N, 1, -2.0f, 2.0f);
  float *y = bench::deviceAlloc<float>(N);
  float ms = bench::medianMs([&] { hardtanh<<<(N + 255) / 256, 256>>>(N, -1.0f, 1.0f, x, y); });
  auto ref = [](size_t i) {
    double v = bench::uniformAt(1, i, -2.0f, 2.0f);
    return std::min(std::max(v, -1.0), 1.0);
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, N, 1 << 20, ref, 1e-6, 0.0));
}
