// Products the tiled transforms must leave alone: tiling them would change
// what they compute.

// Compensated (Kahan) summation: a second variable carried from one k to the
// next besides the sum.
#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) args(n = 64) \
    buffers(A[n * n] in, B[n * n] in, C[n * n] out)
__global__ void kahan_mm(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0.0f, comp = 0.0f;
    for (int k = 0; k < n; ++k) {
      float y = A[row * n + k] * B[k * n + col] - comp;
      float t = sum + y;
      comp = (t - sum) - y;
      sum = t;
    }
    C[row * n + col] = sum;
  }
}

// Accumulating into C without noalias: C may overlap A or B, and then the
// loop reads what it wrote.
#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) args(n = 64) \
    buffers(A[n * n] in, B[n * n] in, C[n * n] inout)
__global__ void gemm_maybe_aliased(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) {
    C[i * n + j] = 0.0f;
    for (int k = 0; k < n; k++)
      C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

// The loop consumes its row operand as it goes.
#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) args(n = 64) \
    buffers(A[n * n] inout, B[n * n] in, C[n * n] out) noalias
__global__ void consuming_mm(float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++) {
      sum += A[i * n + k] * B[k * n + j];
      A[i * n + k] = 0.0f;
    }
    C[i * n + j] = sum;
  }
}

// Each k reads the output's neighbour, which other threads write.
#pragma kopt optimize launch(grid: (n + 15) / 16, (n + 15) / 16; block: 16, 16) args(n = 64) \
    buffers(A[n * n] in, B[n * n] in, C[n * n + 1] inout) noalias
__global__ void neighbour_mm(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n)
    for (int k = 0; k < n; k++)
      C[i * n + j] += A[i * n + k] * B[k * n + j] + C[i * n + j + 1];
}

// A row's dot product accumulated in y without noalias: y may overlap A or x.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(A[n * n] in, x[n] in, y[n] out)
__global__ void matvec_maybe_aliased(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = 0;
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j] * x[j];
  }
}
