#include "check.h"

#include <algorithm>
#include <cmath>

double matmulError(const float *a, const float *b, const float *c, int n) {
  double Worst = 0;
  for (int s = 0; s < 4096; ++s) {
    int row = (s * 7919) % n, col = (s * 104729) % n;
    double sum = 0;
    for (int k = 0; k < n; ++k)
      sum += double(a[row * n + k]) * b[k * n + col];
    Worst = std::max(Worst, std::fabs(c[row * n + col] - sum) / (1 + std::fabs(sum)));
  }
  return Worst;
}

double biasReluError(const float *x, const float *bias, const float *y, int rows, int cols,
                     float scale) {
  double Worst = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      size_t i = size_t(r) * cols + c;
      double want = std::max(double(x[i]) * scale + bias[c], 0.0);
      Worst = std::max(Worst, std::fabs(y[i] - want) / (1 + std::fabs(want)));
    }
  return Worst;
}
