// Two kernels for a worker with two GPUs; the second in a namespace, with a
// helper and a macro only the pragma uses.
#define ROWS 512
#define COLS 256

__device__ float clampUnit(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = ROWS * COLS) \
    buffers(x[n] inout) tol(rtol = 1e-5)
__global__ void clampAll(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = clampUnit(x[i]);
}

namespace rows {
#pragma kopt optimize launch(grid: (rows + 127) / 128; block: 128) args(rows = ROWS, cols = COLS) \
    buffers(m[rows * cols] in, sums[rows] out) noalias
__global__ void rowSums(int rows, int cols, const float *m, float *sums) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += m[r * cols + c];
  sums[r] = s;
}
} // namespace rows
