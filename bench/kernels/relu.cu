// KernelBench level 1, 19_ReLU: y = max(x, 0) over a 4096 x 393216 tensor.
#include "bench_util.h"

#define N (4096 * 393216)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N) \
    buffers(x[n] in, y[n] out)
__global__ void relu(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (x[i] > 0.0f)
      y[i] = x[i];
    else
      y[i] = 0.0f;
  }
}

int main() {
  float *x = bench::uniformBuffer(N, 1);
  float *y = bench::deviceAlloc<float>(N);
  float ms = bench::medianMs([&] { relu<<<(N + 255) / 256, 256>>>(N, x, y); });
  auto ref = [](size_t i) { return std::max(double(bench::uniformAt(1, i)), 0.0); };
  return bench::report(__FILE__, ms, bench::checkOutput(y, N, 1 << 20, ref, 1e-6, 0.0));
}
