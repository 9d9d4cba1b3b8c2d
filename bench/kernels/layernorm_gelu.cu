// A level-2 style sequence: a row-wise layer norm with affine weights, then the exact GELU:
// z = (x - mean) / sqrt(var + eps) * gamma + beta over each row, y = 0.5 z (1 + erf(z / sqrt 2)).
// Shape: 16384 rows of 4096, as in layer_norm.cu. The check recomputes 16 sampled rows.
#include "bench_util.h"

#define ROWS 16384
#define COLS 4096

#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) \
    args(rows = ROWS, cols = COLS, eps = 1e-5f) \
    buffers(x[rows * cols] in, gamma[cols] in, beta[cols] in, y[rows * cols] out) \
    tol(rtol = 1e-3, atol = 1e-4)
__global__ void layernorm_gelu(int rows, int cols, float eps, const float *x,
                               const float *gamma, const float *beta, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *in = x + (size_t)r * cols;
    float *out = y + (size_t)r * cols;
    float mean = 0.0f;
    for (int j = 0; j < cols; j++)
      mean += in[j];
    mean /= cols;
    float var = 0.0f;
    for (int j = 0; j < cols; j++)
      var += (in[j] - mean) * (in[j] - mean);
    var /= cols;
    float inv = 1.0f / sqrtf(var + eps);
    for (int j = 0; j < cols; j++) {
      float z = (in[j] - mean) * inv * gamma[j] + beta[j];
      out[j] = 0.5f * z * (1.0f + erff(z * 0.70710678f));
    }
  }
}

int main() {
  size_t n = size_t(ROWS) * COLS;
  float *x = bench::uniformBuffer(n, 1);
  float *gamma = bench::uniformBuffer(COLS, 2);
  float *beta = bench::uniformBuffer(COLS, 3);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs(
      [&] { layernorm_gelu<<<(ROWS + 255) / 256, 256>>>(ROWS, COLS, 1e-5f, x, gamma, beta, y); });
  size_t row = size_t(-1);
  double mean = 0, inv = 0;
  auto ref = [&](size_t i) {
    if (i / COLS != row) {
      row = i / COLS;
      double sum = 0, sq = 0;
      for (size_t j = 0; j < COLS; j++)
        sum += bench::uniformAt(1, row * COLS + j);
      mean = sum / COLS;
      for (size_t j = 0; j < COLS; j++)
        sq += std::pow(bench::uniformAt(1, row * COLS + j) - mean, 2);
      inv = 1.0 / std::sqrt(sq / COLS + 1e-5);
    }
    size_t j = i % COLS;
    double z =
        (bench::uniformAt(1, i) - mean) * inv * bench::uniformAt(2, j) + bench::uniformAt(3, j);
    return 0.5 * z * (1.0 + std::erf(z / std::sqrt(2.0)));
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutputAt(y, bench::sampleRows(ROWS, COLS, 16), ref, 1e-3, 1e-4));
}
