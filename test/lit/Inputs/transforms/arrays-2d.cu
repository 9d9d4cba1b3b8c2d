// Kernels whose buffers are declared as arrays of arrays, as PolyBench-style
// code writes them: macro extents, an open outer extent, a spelled pointer to
// rows, three dimensions, a constexpr extent and a template argument.
#define N 48
#define M 40
#define DATA_TYPE float
constexpr int W = 24;

// C = alpha A A^T + beta C on the lower triangle (syrk).
#pragma kopt optimize launch(grid: (N + 15) / 16, (N + 7) / 8; block: 16, 8) \
    args(alpha = 0.5f, beta = 1.5f) buffers(A[N * M] in, C[N * N] inout) noalias
__global__ void syrk_2d(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[N][M], DATA_TYPE C[N][N]) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j <= i) {
    C[i][j] *= beta;
    for (int k = 0; k < M; k++)
      C[i][j] += alpha * A[i][k] * A[j][k];
  }
}

// One thread a row, the outer extent left open: row sums into a 1-D array.
#pragma kopt optimize launch(grid: (rows + 127) / 128; block: 128) args(rows = 300) \
    buffers(A[rows * 24] in, out[rows] out) noalias
__global__ void row_sums(int rows, const float A[][W], double out[]) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    double s = 0;
    for (int j = 0; j < W; j++)
      s += A[i][j];
    out[i] = s;
  }
}

// The pointer to rows spelled out; int elements.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1000) \
    buffers(A[n * 4] in, B[n * 4] out) noalias
__global__ void swap_pairs(int n, int (*A)[4], int (*B)[4]) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    B[i][0] = A[i][1];
    B[i][1] = A[i][0];
    B[i][2] = A[i][3];
    B[i][3] = A[i][2];
  }
}

// Three dimensions (heat3d's shape).
#pragma kopt optimize launch(grid: (N + 15) / 16, (N + 3) / 4, (N + 1) / 2; block: 16, 4, 2) \
    buffers(A[N * N * N] in, B[N * N * N] inout) noalias
__global__ void smooth_3d(DATA_TYPE A[N][N][N], DATA_TYPE B[N][N][N]) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1)
    B[i][j][k] = 0.5f * A[i][j][k] + 0.125f * (A[i + 1][j][k] + A[i - 1][j][k] + A[i][j + 1][k] +
                                                A[i][j - 1][k]);
}

// The extent is a template argument: the instantiation launched gives it.
template <int Cols>
#pragma kopt optimize launch(grid: (rows + 63) / 64; block: 64) args(rows = 100) \
    buffers(A[rows * 16] inout) noalias
__global__ void scale_rows(int rows, float A[][Cols]) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < Cols; j++)
      A[i][j] *= 2.0f;
}

template __global__ void scale_rows<16>(int, float (*)[16]);
