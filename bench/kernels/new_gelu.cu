// KernelBench level 1, 88_MinGPTNewGelu: tanh-approximated GELU of minGPT, 8192 x 8192.
#include "bench_util.h"

#define N (8192 * 8192)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N) \
    buffers(x[n] in, y[n] out)
__global__ void new_gelu(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(inner));
  }
}

int main() {
  float *x = bench::uniformBuffer(N, 1);
  float *y = bench::deviceAlloc<float>(N);
  float ms = bench::medianMs([&] { new_gelu<<<(N + 255) / 256, 256>>>(N, x, y); });
  auto ref = [](size_t i) {
    double v = bench::uniformAt(1, i);
    return 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, N, 1 << 20, ref, 1e-5, 1e-6));
}
