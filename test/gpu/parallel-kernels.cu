// Kernels with too little parallelism at sizes where it shows, for
// parallel-transforms.sh: each is rewritten by the parallelism transforms and
// the variants are verified against the original on the GPU and timed.
#define M_VARS 1024
#define N_SAMPLES 1024

// Covariance (PolyBench-like): 1024 threads for 5.4e8 multiply-adds.
#pragma kopt optimize launch(grid: (M_VARS + 255) / 256; block: 256) \
    buffers(symmat[M_VARS * M_VARS] inout, data[N_SAMPLES * M_VARS] in) noalias \
    tol(rtol = 1e-9, atol = 1e-9)
__global__ void covar(double *symmat, double *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  int i, j2;
  if (j1 < M_VARS) {
    for (j2 = j1; j2 < M_VARS; j2++) {
      symmat[j1 * M_VARS + j2] = 0.0;
      for (i = 0; i < N_SAMPLES; i++)
        symmat[j1 * M_VARS + j2] += data[i * M_VARS + j1] * data[i * M_VARS + j2];
      symmat[j2 * M_VARS + j1] = symmat[j1 * M_VARS + j2];
    }
  }
}

// Column means: 4096 threads over a 4096 x 4096 matrix.
#pragma kopt optimize launch(grid: (cols + 255) / 256; block: 256) args(rows = 4096, cols = 4096) \
    buffers(x[rows * cols] in, mean[cols] out) noalias tol(rtol = 1e-4, atol = 1e-5)
__global__ void col_mean(int rows, int cols, const float *x, float *mean) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float s = 0.0f;
    for (int r = 0; r < rows; ++r)
      s += x[r * cols + c];
    mean[c] = s / rows;
  }
}

// y += A^T x, one thread a column.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(m = 4096, n = 4096) \
    buffers(A[m * n] in, x[m] in, y[n] inout) noalias tol(rtol = 1e-4, atol = 1e-4)
__global__ void matvec_t(int m, int n, const float *A, const float *x, float *y) {
  int j = blockDim.x * blockIdx.x + threadIdx.x;
  if (j < n)
    for (int i = 0; i < m; i++)
      y[j] += A[i * n + j] * x[i];
}

// tmp = A x, one thread a row (rows a row apart between threads).
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 4096) \
    buffers(A[n * n] in, x[n] in, tmp[n] out) noalias tol(rtol = 1e-4, atol = 1e-4)
__global__ void atax_rows(int n, const float *A, const float *x, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tmp[i] = 0;
    for (int j = 0; j < n; j++)
      tmp[i] += A[i * n + j] * x[j];
  }
}

// An 8 x 8 product with k = 2^20, accumulated into C with beta. The original's
// serial float sum of 2^20 terms is off the exact sum by up to about 0.03 (sums of
// about 500 in magnitude), so an output near zero needs that much absolute
// tolerance for any order of the additions: atol = 0.1.
#pragma kopt optimize launch(grid: 1, 1; block: 8, 8) args(nk = 1048576, alpha = 1.5f, beta = 0.5f) \
    buffers(A[8 * nk] in, B[nk * 8] in, C[64] inout) noalias tol(rtol = 1e-3, atol = 0.1)
__global__ void skinny(int nk, float alpha, float beta, const float *A, const float *B, float *C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 8 && j < 8) {
    C[i * 8 + j] *= beta;
    for (int k = 0; k < nk; k++)
      C[i * 8 + j] += alpha * A[i * nk + k] * B[k * 8 + j];
  }
}

// A rank-k update whose buffers are declared as 2-D arrays (PolyBench's
// spelling): flat buffers of float to the evaluator, restricted as
// "float (*__restrict__ A)[SYRK_M]" by restrict-readonly.
#define SYRK_N 1024
#define SYRK_M 1024
#pragma kopt optimize launch(grid: (SYRK_N + 31) / 32, (SYRK_N + 7) / 8; block: 32, 8) \
    args(alpha = 0.25f, beta = 2.0f) buffers(A[SYRK_N * SYRK_M] in, C[SYRK_N * SYRK_N] inout) \
    noalias tol(rtol = 1e-3, atol = 1e-3)
__global__ void syrk_2d(float alpha, float beta, float A[SYRK_N][SYRK_M], float C[SYRK_N][SYRK_N]) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < SYRK_N && j < SYRK_N) {
    C[i][j] *= beta;
    for (int k = 0; k < SYRK_M; k++)
      C[i][j] += alpha * A[i][k] * A[j][k];
  }
}
