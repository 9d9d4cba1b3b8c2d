// Global indices with an offset, as solvers and blocked algorithms write
// them: the row below the pivot, a panel's first column.

// LU-style elimination below pivot k (one thread a row).
__global__ void eliminate_rows(float *a, int n, int k) {
  int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float f = a[i * n + k] / a[k * n + k];
    for (int j = k + 1; j < n; j++)
      a[i * n + j] -= f * a[k * n + j];
  }
}

// A panel of rows starting at `first`, offset after the thread index.
__global__ void panel_rowsum(const float *__restrict__ m, float *__restrict__ sums, int first,
                             int rows, int cols) {
  int r = threadIdx.x + blockDim.x * blockIdx.x + first;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c];
    sums[r] = s;
  }
}

// Thread geometry in the offset too: not a plain global index.
__global__ void twice_thread(float *y, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 1.0f;
}
