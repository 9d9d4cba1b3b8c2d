// class: ml
// Layer normalization of a batch of activations (forward, with the saved mean and
// reciprocal deviation a backward pass needs), as a transformer implementation's own CUDA
// kernel writes it: one block per row, each thread summing a strided slice, then two
// shared-memory tree reductions (for (s = blockDim.x / 2; s > 0; s >>= 1) with
// __syncthreads), then the scale and shift by gamma and beta.
// Sizes: 65536 rows x 2048 features (512 MB in, 512 MB out), 256 threads a block.
// Naive estimate on the H100/H200: ~0.6 ms (memory-bound, two passes over each row).
// Check: every element of 64 sampled rows, and every row's mean and rstd, against double.
#include "apps_util.h"

// cpu emulation: ROWS=21 COLS=300 BLOCK=64

#define ROWS 65536
#define COLS 2048
#define BLOCK 256
#define EPS 1e-5f

#pragma kopt optimize launch(grid: rows; block: BLOCK) args(rows = ROWS, cols = COLS, eps = EPS) \
    buffers(x[rows * cols] in, gamma[cols] in, beta[cols] in, y[rows * cols] out, mean[rows] out, rstd[rows] out) \
    tol(rtol = 1e-4, atol = 1e-5)
__global__ void layerNormForward(const float *x, const float *gamma, const float *beta, float *y, float *mean,
                                 float *rstd, int rows, int cols, float eps)
{
  __shared__ float sSum[BLOCK];
  __shared__ float sSq[BLOCK];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows) return;
  const float *xr = x + (size_t)row * cols;
  float sum = 0.0f, sq = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x) {
    float v = xr[c];
    sum += v;
    sq += v * v;
  }
  sSum[tid] = sum;
  sSq[tid] = sq;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sSum[tid] += sSum[tid + s];
      sSq[tid] += sSq[tid + s];
    }
    __syncthreads();
  }
  float mu = sSum[0] / cols;
  float var = sSq[0] / cols - mu * mu;
  float r = rsqrtf(var + eps);
  if (tid == 0) {
    mean[row] = mu;
    rstd[row] = r;
  }
  float *yr = y + (size_t)row * cols;
  for (int c = tid; c < cols; c += blockDim.x)
    yr[c] = (xr[c] - mu) * r * gamma[c] + beta[c];
}

int main()
{
  const int rows = ROWS, cols = COLS;
  const size_t n = (size_t)rows * cols;
  float *x = bench::uniformBuffer(n, 151, -2.0f, 2.0f);
  float *gamma = bench::uniformBuffer(cols, 152, 0.5f, 1.5f), *beta = bench::uniformBuffer(cols, 153, -0.5f, 0.5f);
  float *y = bench::deviceAlloc<float>(n), *mean = bench::deviceAlloc<float>(rows), *rstd = bench::deviceAlloc<float>(rows);

  float ms = apps::programMs([&] { layerNormForward<<<rows, BLOCK>>>(x, gamma, beta, y, mean, rstd, rows, cols, EPS); });

  auto xAt = [&](size_t row, int c) { return double(bench::uniformAt(151, row * cols + c, -2.0f, 2.0f)); };
  std::vector<double> mu(rows), rs(rows);
  apps::parallelFor(rows, [&](size_t row) {
    double s = 0, ss = 0;
    for (int c = 0; c < cols; c++) s += xAt(row, c);
    mu[row] = s / cols;
    for (int c = 0; c < cols; c++) ss += (xAt(row, c) - mu[row]) * (xAt(row, c) - mu[row]);
    rs[row] = 1.0 / std::sqrt(ss / cols + double(EPS));
  });
  std::vector<size_t> index = bench::sampleRows(rows, cols, 64);
  std::vector<double> want(index.size());
  for (size_t k = 0; k < index.size(); k++) {
    size_t row = index[k] / cols, c = index[k] % cols;
    want[k] = (xAt(row, int(c)) - mu[row]) * rs[row] * bench::uniformAt(152, c, 0.5f, 1.5f) + bench::uniformAt(153, c, -0.5f, 0.5f);
  }
  bench::CheckResult r = bench::checkOutputAt(y, index, apps::valuesAt(index, want), 1e-4, 1e-4);
  // The mean is a float sum of 2048 values in [-2, 2) that nearly cancel: an absolute bound.
  r = bench::combine(r, apps::checkHost(textbook::download(mean, rows), mu, 1e-4, 1e-5));
  r = bench::combine(r, apps::checkHost(textbook::download(rstd, rows), rs, 1e-4, 1e-5));
  return bench::report(__FILE__, ms, r);
}
