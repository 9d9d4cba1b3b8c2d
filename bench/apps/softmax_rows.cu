// class: ml
// Row-wise softmax of a logits matrix, written as a generic library kernel: a template
// over the element type and the index type (softmaxRows<float, int>), the row and column
// counts of the index type, one thread per row making three passes (max, exponentials and
// their sum, normalization), exp() of the element type.
// Sizes: 65536 rows x 1024 columns (256 MB in, 256 MB out).
// Naive estimate on the H100/H200: ~6 ms (each thread walks its own row: the warp's loads
// are 32 rows apart).
// Check: every element of 64 sampled rows against double.
#include "apps_util.h"

// cpu emulation: ROWS=45 COLS=67

#define ROWS 65536
#define COLS 1024

#pragma kopt optimize launch(grid: (rows + 127) / 128; block: 128) args(rows = ROWS, cols = COLS) \
    buffers(logits[rows * cols] in, probs[rows * cols] out) tol(rtol = 1e-5, atol = 1e-7)
template <typename T, typename IdxT>
__global__ void softmaxRows(const T *logits, T *probs, IdxT rows, IdxT cols)
{
  IdxT row = blockIdx.x * (IdxT)blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const T *x = logits + (size_t)row * cols;
  T *y = probs + (size_t)row * cols;
  T mx = x[0];
  for (IdxT c = 1; c < cols; ++c)
    mx = max(mx, x[c]);
  T sum = 0;
  for (IdxT c = 0; c < cols; ++c) {
    T e = exp(x[c] - mx);
    y[c] = e;
    sum += e;
  }
  T inv = T(1) / sum;
  for (IdxT c = 0; c < cols; ++c)
    y[c] *= inv;
}

int main()
{
  const int rows = ROWS, cols = COLS;
  const size_t n = (size_t)rows * cols;
  float *logits = bench::uniformBuffer(n, 141, -8.0f, 8.0f);
  float *probs = bench::deviceAlloc<float>(n);

  float ms = apps::programMs([&] { softmaxRows<float, int><<<(rows + 127) / 128, 128>>>(logits, probs, rows, cols); });

  // Reference rows, computed once per row the sample touches.
  std::vector<size_t> index = bench::sampleRows(rows, cols, 64);
  std::vector<double> want(index.size());
  for (size_t k = 0; k < index.size(); k += cols) {
    size_t row = index[k] / cols;
    double mx = -1e30, sum = 0;
    for (int c = 0; c < cols; c++) mx = std::max(mx, double(bench::uniformAt(141, row * cols + c, -8.0f, 8.0f)));
    for (int c = 0; c < cols; c++) sum += std::exp(bench::uniformAt(141, row * cols + c, -8.0f, 8.0f) - mx);
    for (int c = 0; c < cols; c++) want[k + c] = std::exp(bench::uniformAt(141, row * cols + c, -8.0f, 8.0f) - mx) / sum;
  }
  return bench::report(__FILE__, ms, bench::checkOutputAt(probs, index, apps::valuesAt(index, want), 1e-5, 1e-7));
}
