// Kernels that number a 2D output with one global index and split it again
// (grid-2d.test), in the ways people write them.
#ifndef M_DIM
#define M_DIM 64
#define N_DIM 96
#define K_DIM 32
#endif

// The common naive product: a square n, `idx < n * n`, row and column from
// the split.
#pragma kopt optimize launch(grid: (n * n + 255) / 256; block: 256) args(n = 96) \
    buffers(A[n * n] in, B[n * n] in, C[n * n] out) tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void matmulFlat(const float *A, const float *B, float *C, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n * n) {
    int row = idx / n;
    int col = idx % n;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
      sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
  }
}

// Fixed sizes from macros, an early return, the split used in the subscripts
// and the index itself for the output.
#pragma kopt optimize launch(grid: (M_DIM * N_DIM + 127) / 128; block: 128) \
    buffers(A[M_DIM * K_DIM] in, B[K_DIM * N_DIM] in, C[M_DIM * N_DIM] out) noalias
__global__ void matmulFlatFixed(const float *A, const float *B, float *C) {
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid >= M_DIM * N_DIM)
    return;
  float acc = 0;
  for (int k = 0; k < K_DIM; k++)
    acc += A[(tid / N_DIM) * K_DIM + k] * B[k * N_DIM + tid % N_DIM];
  C[tid] = acc;
}

// A transpose with unsigned indices and a width parameter: the bound is
// w * h with the width first.
#pragma kopt optimize launch(grid: (w * h + 255) / 256; block: 256) args(w = 150, h = 37) \
    buffers(in[w * h] in, out[w * h] out) noalias
__global__ void transposeFlat(const float *in, float *out, int w, int h) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < w * h) {
    unsigned int x = i % w, y = i / w;
    out[x * h + y] = in[i];
  }
}

// Refused: two widths.
__global__ void twoWidths(const float *in, float *out, int w, int v) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < w * v)
    out[idx] = in[(idx / w) * v + idx % v];
}

// Refused: a grid-stride loop has no fixed rows.
__global__ void strided(const float *in, float *out, int w, int total) {
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += blockDim.x * gridDim.x)
    out[idx] = in[(idx % w) * w + idx / w];
}
