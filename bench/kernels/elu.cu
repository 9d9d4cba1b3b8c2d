// KernelBench level 1, 31_ELU: y = x > 0 ? x : alpha (exp(x) - 1) (alpha 1), 4096 x 393216.
#include "bench_util.h"

#define N (4096 * 393216)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, alpha = 1.0f) \
    buffers(x[n] in, y[n] out)
__global__ void elu(int n, float alpha, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    if (v > 0.0f)
      y[i] = v;
    else
      y[i] = alpha * (expf(v) - 1.0f);
  }
}

int main() {
  float *x = bench::uniformBuffer(N, 1);
  float *y = bench::deviceAlloc<float>(N);
  float ms = bench::medianMs([&] { elu<<<(N + 255) / 256, 256>>>(N, 1.0f, x, y); });
  auto ref = [](size_t i) {
    double v = bench::uniformAt(1, i);
    return v > 0 ? v : std::expm1(v);
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, N, 1 << 20, ref, 1e-5, 1e-6));
}
