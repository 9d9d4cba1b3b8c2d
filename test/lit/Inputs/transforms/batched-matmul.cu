// Batched matmul: the batch from blockIdx.z, operands through local pointers.
#pragma kopt optimize launch(grid: (N + 15) / 16, (M + 15) / 16, batch; block: 16, 16) \
    args(batch = 3, M = 40, N = 33, K = 17) \
    buffers(A[batch * M * K] in, B[batch * K * N] in, C[batch * M * N] out)
__global__ void bmm(const float *A, const float *B, float *C, int batch, int M, int N, int K) {
  int b = blockIdx.z;
  const float *a = A + (long)b * M * K;
  const float *bb = B + (long)b * K * N;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += a[row * K + k] * bb[k * N + col];
    C[(long)b * M * N + row * N + col] = acc;
  }
}
