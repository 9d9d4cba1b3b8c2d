// Products over a triangle of k, written the ways BLAS reference loops and
// polyhedral benchmark ports write them: the k range follows the thread's row
// or its column. For register-blocking and smem-tiling (triangular k loops).
#ifndef ROWS
#define ROWS 100
#endif
#ifndef COLS
#define COLS 70
#endif

// trmm (B = alpha (I + L^T) B, out of place): k from the row + 1, the
// triangular operand read transposed, the register starting from B[i][j].
#pragma kopt optimize launch(grid: (COLS + 15) / 16, (ROWS + 15) / 16; block: 16, 16) \
    args(alpha = 0.5f) buffers(a[ROWS * ROWS] in, b[ROWS * COLS] in, out[ROWS * COLS] out) noalias
__global__ void trmm_lower(float alpha, const float *a, const float *b, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < ROWS && j < COLS) {
    float temp = b[i * COLS + j];
    for (int k = i + 1; k < ROWS; k++)
      temp += a[k * ROWS + i] * b[k * COLS + j];
    out[i * COLS + j] = alpha * temp;
  }
}

// C = A U with U upper triangular: k up to and including the column (<=),
// the column from x, a parameter size, an early return.
#pragma kopt optimize launch(grid: (n + 31) / 32, (m + 7) / 8; block: 32, 8) args(m = ROWS, n = COLS) \
    buffers(a[m * n] in, u[n * n] in, c[m * n] out) noalias
__global__ void times_upper(int m, int n, const float *a, const float *u, float *c) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n)
    return;
  float sum = 0.0f;
  for (int k = 0; k <= col; ++k)
    sum += a[row * n + k] * u[k * n + col];
  c[row * n + col] = sum;
}

// A lower-triangular product in 2-D arrays: k from 0 to the row, the sum
// accumulated in the output after `= 0` (scalar replacement first).
#pragma kopt optimize launch(grid: (COLS + 31) / 32, (ROWS + 7) / 8; block: 32, 8) \
    buffers(l[ROWS * ROWS] in, x[ROWS * COLS] in, y[ROWS * COLS] out) noalias
__global__ void lower_times(float l[ROWS][ROWS], float x[ROWS][COLS], float y[ROWS][COLS]) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < ROWS) && (j < COLS)) {
    y[i][j] = 0;
    int k;
    for (k = 0; k < i + 1; k++)
      y[i][j] += l[i][k] * x[k][j];
  }
}
