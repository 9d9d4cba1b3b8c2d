// KernelBench level 1, 23_Softmax: softmax over each row, one thread per row.
// Shape: 4096 x 65536 here (KernelBench: 4096 x 393216); with one thread per row the
// naive kernel reads each row three times, and the shorter rows keep it in the tens of ms.
// The check recomputes 16 sampled rows in full in double.
#include "bench_util.h"

#define ROWS 4096
#define COLS 65536

#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = ROWS, cols = COLS) \
    buffers(x[rows * cols] in, y[rows * cols] out) tol(rtol = 1e-3, atol = 1e-8)
__global__ void softmax(int rows, int cols, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *in = x + (size_t)r * cols;
    float *out = y + (size_t)r * cols;
    float mx = in[0];
    for (int j = 1; j < cols; j++)
      mx = fmaxf(mx, in[j]);
    float sum = 0.0f;
    for (int j = 0; j < cols; j++)
      sum += expf(in[j] - mx);
    for (int j = 0; j < cols; j++)
      out[j] = expf(in[j] - mx) / sum;
  }
}

int main() {
  size_t n = size_t(ROWS) * COLS;
  float *x = bench::uniformBuffer(n, 1);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] { softmax<<<(ROWS + 255) / 256, 256>>>(ROWS, COLS, x, y); });
  size_t row = size_t(-1);
  double mx = 0, sum = 0;
  auto ref = [&](size_t i) {
    if (i / COLS != row) {
      row = i / COLS;
      mx = -1e300, sum = 0;
      for (size_t j = 0; j < COLS; j++)
        mx = std::max(mx, double(bench::uniformAt(1, row * COLS + j)));
      for (size_t j = 0; j < COLS; j++)
        sum += std::exp(bench::uniformAt(1, row * COLS + j) - mx);
    }
    return std::exp(bench::uniformAt(1, i) - mx) / sum;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutputAt(y, bench::sampleRows(ROWS, COLS, 16), ref, 1e-3, 1e-8));
}
