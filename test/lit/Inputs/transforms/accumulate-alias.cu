// The same accumulation without noalias: C may overlap A or B.
__global__ void matmul_acc_alias(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n)
    for (int k = 0; k < n; k++)
      C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// Restrict pointers make it legal again; a histogram-like row sum too.
__global__ void row_sum(const float *__restrict__ x, float *__restrict__ out, int n, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    out[r] = 0.0f;
    for (int c = 0; c < m; ++c) {
      out[r] += x[r * m + c];
      out[r] *= 0.5f;
    }
  }
}
