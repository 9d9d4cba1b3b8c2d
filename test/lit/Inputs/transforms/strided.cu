// One thread a row of row-major data, walking its row: neighbouring threads
// read a row apart. For the coalescing-repair tests (see also columns.cu).

// Row norms over a 2D array (textbook: parameters, an early return).
#define KDIM 100
#pragma kopt optimize launch(grid: (rows + 127) / 128; block: 128) args(rows = 70) \
    buffers(a[rows * KDIM] in, out[rows] out) noalias
__global__ void row_norm2d(int rows, const float (*a)[KDIM], float *out) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= rows)
    return;
  float s = 0.0f;
  for (int k = 0; k < KDIM; ++k)
    s += a[i][k] * a[i][k];
  out[i] = sqrtf(s);
}

// Dot products through a row pointer in size_t arithmetic, double.
#pragma kopt optimize launch(grid: (m + 255) / 256; block: 256) args(m = 90, n = 75) \
    buffers(A[m * n] in, v[n] in, w[m] out) noalias
__global__ void row_dot_ptr(int m, int n, const double *A, const double *v, double *w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    const double *row = A + (size_t)r * n;
    double acc = 0.0;
    for (int c = 0; c < n; c++)
      acc += row[c] * v[c];
    w[r] = acc;
  }
}

// Refused: the loop scales its row in place (a write to what it reads).
#pragma kopt optimize launch(grid: (m + 255) / 256; block: 256) args(m = 90, n = 75) \
    buffers(A[m * n] inout) noalias
__global__ void scale_rows(int m, int n, float *A) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m)
    for (int c = 0; c < n; c++)
      A[r * n + c] = 0.5f * A[r * n + c];
}

// Refused: a triangular loop, whose bounds differ between threads.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 90) \
    buffers(L[n * n] in, d[n] out) noalias
__global__ void lower_sums(int n, const float *L, float *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k <= i; k++)
      s += L[i * n + k];
    d[i] = s;
  }
}
