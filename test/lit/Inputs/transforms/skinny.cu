// Skinny products: few outputs, a long k loop each, one thread an output. For
// the split-k tests.

// C = A B with a handful of outputs (row from y, col from x), the sum in a
// register.
#pragma kopt optimize launch(grid: (n + 15) / 16, (m + 15) / 16; block: 16, 16) \
    args(m = 3, n = 5, k = 4000) buffers(A[m * k] in, B[k * n] in, C[m * n] out) noalias
__global__ void skinny_mm(int m, int n, int k, const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float acc = 0.0f;
    for (int p = 0; p < k; ++p)
      acc += A[row * k + p] * B[p * n + col];
    C[row * n + col] = acc;
  }
}

// A few dot products with the sum in the output (PolyBench-like: macro
// sizes, the counter declared before the loop).
#define NROWS 3
#define KLEN 5000
#pragma kopt optimize launch(grid: 1; block: 32) \
    buffers(A[NROWS * KLEN] in, x[KLEN] in, tmp[NROWS] out) noalias
__global__ void few_dots(double *A, double *x, double *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j;
  if (i < NROWS) {
    tmp[i] = 0;
    for (j = 0; j < KLEN; j++)
      tmp[i] += A[i * KLEN + j] * x[j];
  }
}

// C = alpha A B + beta C over 2D arrays, accumulated in C itself: the beta
// scaling and the sum must each count once.
#define NI 4
#define NJ 3
#pragma kopt optimize launch(grid: 1, 1; block: 8, 8) args(nk = 3000, alpha = 1.5f, beta = 0.5f) \
    buffers(A[NI * nk] in, B[nk * NJ] in, C[NI * NJ] inout) noalias
__global__ void gemm_beta(int nk, float alpha, float beta, const float *A, const float (*B)[NJ],
                          float (*C)[NJ]) {
  const int j = threadIdx.x + blockIdx.x * blockDim.x;
  const int i = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= NI || j >= NJ)
    return;
  C[i][j] *= beta;
  for (int k = 0; k < nk; k += 1)
    C[i][j] += alpha * A[i * nk + k] * B[k][j];
}

// Nothing to split: the loop folds nothing.
#pragma kopt optimize launch(grid: 1; block: 32) args(n = 4, k = 100) \
    buffers(x[n * k] in, y[n * k] out)
__global__ void copy_rows(int n, int k, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int p = 0; p < k; ++p)
      y[i * k + p] = x[i * k + p];
}
