// KernelBench level 1, 89_cumsum: inclusive prefix sum along each row of a 32768 x 32768
// tensor, one thread per row. The check recomputes 8 sampled rows in full in double; the
// sums are random walks, so the tolerance is absolute where they pass near zero.
#include "bench_util.h"

#define ROWS 32768
#define COLS 32768

#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = ROWS, cols = COLS) \
    buffers(x[rows * cols] in, y[rows * cols] out) tol(rtol = 1e-3, atol = 1e-2)
__global__ void cumsum(int rows, int cols, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float sum = 0.0f;
    for (int j = 0; j < cols; j++) {
      sum += x[(size_t)r * cols + j];
      y[(size_t)r * cols + j] = sum;
    }
  }
}

int main() {
  size_t n = size_t(ROWS) * COLS;
  float *x = bench::uniformBuffer(n, 1);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] { cumsum<<<(ROWS + 255) / 256, 256>>>(ROWS, COLS, x, y); });
  double sum = 0;
  auto ref = [&](size_t i) { // Indices come in order, whole rows at a time.
    sum = (i % COLS == 0 ? 0.0 : sum) + bench::uniformAt(1, i);
    return sum;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutputAt(y, bench::sampleRows(ROWS, COLS, 8), ref, 1e-3, 1e-2));
}
