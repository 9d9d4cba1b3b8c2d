// An accumulation into global memory inside the k loop (scalar replacement).
#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) \
    args(n = 64) buffers(A[n * n] in, B[n * n] in, C[n * n] inout) noalias
__global__ void matmul_acc(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n)
    for (int k = 0; k < n; k++)
      C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// A register that starts at C and is scaled every iteration: its start must be
// in the register before the loop.
#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) \
    args(n = 64) buffers(A[n * n] in, B[n * n] in, C[n * n] inout) noalias
__global__ void matmul_decay(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) {
    float acc = C[i * n + j];
    for (int k = 0; k < n; ++k)
      acc = 0.5f * acc + A[i * n + k] * B[k * n + j];
    C[i * n + j] = acc;
  }
}

// A register that starts at C and only loses products: its start may be
// added after the loop.
#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) \
    args(n = 64) buffers(A[n * n] in, B[n * n] in, C[n * n] inout) noalias
__global__ void matmul_minus(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) {
    float acc = C[i * n + j];
    for (int k = 0; k < n; ++k)
      acc -= A[i * n + k] * B[k * n + j];
    C[i * n + j] = acc;
  }
}
