// Kernels written after the reference BLAS: column-major storage with leading
// dimensions, the row index i from x (so columns are coalesced), a running
// `temp`, and alpha and beta applied once at the end, beta == 0 apart.
typedef double real_t;

// C = alpha A B + beta C (no transposes).
#pragma kopt optimize launch(grid: (m + 15) / 16, (n + 15) / 16; block: 16, 16) \
    args(m = 100, n = 70, k = 50, alpha = 1.5f, lda = 100, ldb = 50, beta = 0.5f, ldc = 100) \
    buffers(A[lda * k] in, B[ldb * n] in, C[ldc * n] inout)
__global__ void sgemm_nn(int m, int n, int k, float alpha, const float *A, int lda,
                         const float *B, int ldb, float beta, float *C, int ldc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= m || j >= n)
    return;
  float temp = 0.0f;
  for (int l = 0; l < k; l++)
    temp += A[i + l * lda] * B[l + j * ldb];
  if (beta == 0.0f)
    C[i + j * ldc] = alpha * temp;
  else
    C[i + j * ldc] = alpha * temp + beta * C[i + j * ldc];
}

// C = alpha A^T B + beta C in double precision.
#pragma kopt optimize launch(grid: (m + 15) / 16, (n + 15) / 16; block: 16, 16) \
    args(m = 100, n = 70, k = 50, alpha = 1.5, lda = 50, ldb = 50, beta = 0.5, ldc = 100) \
    buffers(A[lda * m] in, B[ldb * n] in, C[ldc * n] inout)
__global__ void dgemm_tn(int m, int n, int k, real_t alpha, const real_t *A, int lda,
                         const real_t *B, int ldb, real_t beta, real_t *C, int ldc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < m && j < n) {
    real_t temp = 0;
    for (int l = 0; l < k; ++l)
      temp += A[l + i * lda] * B[l + j * ldb];
    C[i + j * ldc] = alpha * temp + beta * C[i + j * ldc];
  }
}

// y = alpha A^T x + beta y: one thread a column of A, a strided walk down it.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) \
    args(m = 300, n = 70, alpha = 1.5f, lda = 300, beta = 0.5f) \
    buffers(A[lda * n] in, x[m] in, y[n] inout)
__global__ void sgemv_t(int m, int n, float alpha, const float *A, int lda, const float *x,
                        float beta, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) {
    float temp = 0.0f;
    for (int l = 0; l < m; l++)
      temp += A[l + j * lda] * x[l];
    y[j] = alpha * temp + beta * y[j];
  }
}
