// KernelBench level 1, 94_MSELoss: mean((p - t)^2) over all elements. Shape: 32768 x 8192
// here (KernelBench: 32768 x 32768); the check sums every element in double on the host.
// One thread per row adds its share to loss[0] with atomicAdd, so the kernel accumulates
// into loss; the host clears it before each launch.
#include "bench_util.h"

#define ROWS 32768
#define COLS 8192

#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = ROWS, cols = COLS) \
    buffers(p[rows * cols] in, t[rows * cols] in, loss[1] inout) tol(rtol = 1e-3, atol = 1e-6)
__global__ void mse_loss(int rows, int cols, const float *p, const float *t, float *loss) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float sum = 0.0f;
    for (int j = 0; j < cols; j++) {
      float d = p[(size_t)r * cols + j] - t[(size_t)r * cols + j];
      sum += d * d;
    }
    atomicAdd(loss, sum / ((float)rows * cols));
  }
}

int main() {
  size_t n = size_t(ROWS) * COLS;
  float *p = bench::uniformBuffer(n, 1);
  float *t = bench::uniformBuffer(n, 2);
  float *loss = bench::zeroBuffer<float>(1);
  float ms = bench::medianMs([&] {
    BENCH_CUDA(cudaMemsetAsync(loss, 0, sizeof(float)));
    mse_loss<<<(ROWS + 255) / 256, 256>>>(ROWS, COLS, p, t, loss);
  });
  auto ref = [](size_t) {
    double sum = 0;
    for (size_t i = 0; i < size_t(ROWS) * COLS; i++)
      sum += std::pow(double(bench::uniformAt(1, i)) - bench::uniformAt(2, i), 2);
    return sum / (double(ROWS) * COLS);
  };
  return bench::report(__FILE__, ms, bench::checkOutput(loss, 1, 1, ref, 1e-3, 1e-6));
}
