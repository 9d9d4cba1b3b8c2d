// class: reduction
// L2 normalization of feature vectors (embeddings before a cosine-similarity search), as
// a retrieval code writes it with CUB: one block per row reduces the squares of its row
// with cub::BlockReduce, thread 0 stores the norm; a second kernel divides every element by
// its row's norm.
// Sizes: 65536 rows x 2048 features (512 MB), 256 threads a block.
// Naive estimate on the H100/H200: rowNorms ~0.2 ms, normalizeRows ~0.3 ms (memory-bound,
// the second reads and writes the matrix); the program ~0.5 ms.
// Check: every row's norm and every element of 64 sampled rows against double.
#include "apps_util.h"

#include <cub/cub.cuh>

// cpu emulation: ROWS=21 COLS=300 BLOCK=64

#define ROWS 65536
#define COLS 2048
#define BLOCK 256

#pragma kopt optimize launch(grid: rows; block: BLOCK) args(rows = ROWS, cols = COLS) \
    buffers(x[rows * cols] in, norms[rows] out) tol(rtol = 1e-5, atol = 1e-6)
__global__ void rowNorms(const float *x, float *norms, int rows, int cols)
{
  typedef cub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  int row = blockIdx.x;
  float partial = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    float v = x[(size_t)row * cols + c];
    partial += v * v;
  }
  float total = BlockReduce(temp).Sum(partial);
  if (threadIdx.x == 0)
    norms[row] = sqrtf(total);
}

#pragma kopt optimize launch(grid: (rows * cols + 255) / 256; block: 256) args(rows = ROWS, cols = COLS) \
    buffers(x[rows * cols] inout, norms[rows] in range(0.5, 2)) tol(rtol = 1e-6, atol = 1e-7)
__global__ void normalizeRows(float *x, const float *norms, int rows, int cols)
{
  size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (idx < (size_t)rows * cols)
    x[idx] /= norms[idx / cols];
}

int main()
{
  const int rows = ROWS, cols = COLS;
  const size_t n = (size_t)rows * cols;
  float *x = bench::uniformBuffer(n, 211), *x0 = textbook::snapshot(x, n);
  float *norms = bench::deviceAlloc<float>(rows);

  float ms = apps::programMs([&] { textbook::restore(x, x0, n); },
                             [&] {
                               rowNorms<<<rows, BLOCK>>>(x, norms, rows, cols);
                               normalizeRows<<<(rows * cols + 255) / 256, 256>>>(x, norms, rows, cols);
                             });

  std::vector<double> nrm(rows);
  apps::parallelFor(rows, [&](size_t row) {
    double s = 0;
    for (int c = 0; c < cols; c++) {
      double v = bench::uniformAt(211, row * cols + c);
      s += v * v;
    }
    nrm[row] = std::sqrt(s);
  });
  std::vector<size_t> index = bench::sampleRows(rows, cols, 64);
  std::vector<double> want(index.size());
  for (size_t k = 0; k < index.size(); k++) want[k] = bench::uniformAt(211, index[k]) / nrm[index[k] / cols];
  bench::CheckResult r = apps::checkHost(textbook::download(norms, rows), nrm, 1e-5, 1e-6);
  r = bench::combine(r, bench::checkOutputAt(x, index, apps::valuesAt(index, want), 1e-5, 1e-7));
  return bench::report(__FILE__, ms, r);
}
