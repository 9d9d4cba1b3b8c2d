// Loops whose trip counts come from an integer buffer: CSR row pointers read
// into locals (SHOC's scalar kernel) and read in the loop header itself,
// which the evaluator generates as rows (offsets), and a count array bounding
// a while loop (a bucket walk), whose default integers in [0, 16) time other
// trip counts than the application's.
#pragma kopt optimize launch(grid: (rows + 127) / 128; block: 128) args(rows = 4096) \
    buffers(val[rows * 8] in, cols[rows * 8] in, rowptr[rows + 1] in, x[rows] in, y[rows] out) noalias
__global__ void csr_locals(const float *val, const int *cols, const int *rowptr, const float *x,
                           const int rows, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float t = 0.0f;
    int start = rowptr[row];
    int end = rowptr[row + 1];
    for (int j = start; j < end; j++)
      t += val[j] * x[cols[j]];
    y[row] = t;
  }
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 8192) \
    buffers(ptr[n + 1] in, a[n * 4] in, out[n] out) noalias
__global__ void csr_header(int n, const unsigned *ptr, const double *a, double *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n)
    return;
  double s = 0;
  for (unsigned j = ptr[r]; j < ptr[r + 1]; ++j)
    s += a[j];
  out[r] = s;
}

#pragma kopt optimize launch(grid: 64; block: 128) args(n = 8192) \
    buffers(counts[n] in, items[n * 16] in, sums[n] out) noalias
__global__ void bucket_walk(int n, const int *counts, const float *items, float *sums) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < n) {
    int k = 0;
    float s = 0;
    while (k < counts[b]) {
      s += items[b * 16 + k];
      ++k;
    }
    sums[b] = s;
  }
}

// Not warned: a range on the bounding buffer, a float buffer in the
// condition, a bound from a scalar.
#pragma kopt optimize launch(grid: (rows + 127) / 128; block: 128) args(rows = 4096) \
    buffers(len[rows] in range(0, 64), w[rows] in, v[rows * 64] in, y[rows] out) noalias
__global__ void not_warned(const int *len, const float *w, const float *v, int rows, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float t = 0;
    for (int j = 0; j < len[r]; ++j)
      t += v[r * 64 + j];
    for (int j = 0; w[r] > t && j < 4; ++j)
      t += 1.0f;
    for (int j = 0; j < rows; j += 1024)
      t += v[j];
    y[r] = t;
  }
}
