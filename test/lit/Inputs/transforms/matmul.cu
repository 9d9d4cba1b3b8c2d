// Naive matmul: row from y, col from x, guarded (sizes need not divide the tile).
#pragma kopt optimize launch(grid: (N + 15) / 16, (M + 15) / 16; block: 16, 16) \
    args(M = 100, N = 70, K = 50) buffers(A[M * K] in, B[K * N] in, C[M * N] out)
__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

// Without bounds checks: T x T blocks could have threads the launch did not.
__global__ void matmul_exact(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
