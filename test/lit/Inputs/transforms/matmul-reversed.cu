// Naive matmul with the x mapping reversed: row from x (A and C strided across
// a warp), an early return instead of an enclosing guard.
#pragma kopt optimize launch(grid: (M + 15) / 16, (N + 15) / 16; block: 16, 16) \
    args(M = 100, N = 70, K = 50) buffers(A[M * K] in, B[K * N] in, C[M * N] out)
__global__ void matmul_rev(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = threadIdx.y + blockIdx.y * blockDim.y;
  if (row >= M || col >= N)
    return;
  float sum = 0;
  for (int k = 0; k < K; k++) {
    sum += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = sum;
}
