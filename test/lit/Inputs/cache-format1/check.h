// Host-side reference checks (plain C++, compiled by the host compiler).
#pragma once

#include <cstddef>

// Largest |got - expected| / (1 + |expected|) over a sample of C = A B (n x n).
double matmulError(const float *a, const float *b, const float *c, int n);
// The same over every element of y = max(x * scale + bias[col], 0) (rows x cols).
double biasReluError(const float *x, const float *bias, const float *y, int rows, int cols,
                     float scale);
