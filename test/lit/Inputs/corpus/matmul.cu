// Naive matrix products: C = A * B with A M x K, B K x N, C M x N.
#define M 512
#define N 512
#define K 256

__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0.0f;
#pragma unroll 4
    for (int kk = 0; kk < k; ++kk)
      sum += A[row * k + kk] * B[kk * n + col];
    C[row * n + col] = sum;
  }
}

// Accumulates into C in the loop, and reads A transposed (strided by m).
__global__ void matmul_accumulate(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y;
  if (row >= m)
    return;
  for (int kk = 0; kk < k; kk += 1)
    C[row * n + col] += A[kk * m + row] * B[kk * n + col] + A[row * k + kk];
}

void multiply(const float *A, const float *B, float *C) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  matmul<<<grid, block>>>(A, B, C, M, N, K);
  matmul_accumulate<<<dim3((M + 255) / 256, N), 256>>>(A, B, C, M, N, K);
}
