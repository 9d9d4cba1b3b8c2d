// Matrix products as textbooks and course notes write them: 2D arrays with
// compile-time row lengths, transposed operands, index variables, a
// batch from blockIdx.z with the offsets written out.
#ifndef M_DIM
#define M_DIM 100
#endif
#ifndef N_DIM
#define N_DIM 70
#endif
#ifndef K_DIM
#define K_DIM 50
#endif

// C = A B on 2D arrays: A[row][k] * B[k][col].
#pragma kopt optimize launch(grid: (N_DIM + 15) / 16, (M_DIM + 15) / 16; block: 16, 16) \
    buffers(A[M_DIM * K_DIM] in, B[K_DIM * N_DIM] in, C[M_DIM * N_DIM] out)
__global__ void matMul2D(const float A[][K_DIM], const float B[][N_DIM], float C[][N_DIM]) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M_DIM && col < N_DIM) {
    float sum = 0.0f;
    for (int k = 0; k < K_DIM; ++k)
      sum += A[row][k] * B[k][col];
    C[row][col] = sum;
  }
}

// C = A^T B through pointers to rows, accumulated in C itself.
#pragma kopt optimize launch(grid: (N_DIM + 15) / 16, (M_DIM + 15) / 16; block: 16, 16) \
    buffers(A[K_DIM * M_DIM] in, B[K_DIM * N_DIM] in, C[M_DIM * N_DIM] out) noalias
__global__ void matMulAtB(const float (*A)[M_DIM], const float (*B)[N_DIM], float (*C)[N_DIM]) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M_DIM || j >= N_DIM)
    return;
  C[i][j] = 0.0f;
  for (int k = 0; k < K_DIM; k++)
    C[i][j] += A[k][i] * B[k][j];
}

// C = A B^T, flattened, the row from x: B's row is its k dimension.
#pragma kopt optimize launch(grid: (m + 15) / 16, (n + 15) / 16; block: 16, 16) \
    args(m = 100, n = 70, p = 50) buffers(A[m * p] in, B[n * p] in, C[m * n] out)
__global__ void matMulABt(const float *A, const float *B, float *C, int m, int n, int p) {
  int r = threadIdx.x + blockIdx.x * blockDim.x;
  int c = threadIdx.y + blockIdx.y * blockDim.y;
  if (r < m && c < n) {
    float dot = 0;
    for (int k = 0; k < p; k++) {
      dot += A[k + r * p] * B[c * p + k];
    }
    C[r * n + c] = dot;
  }
}

// Index variables: the output's before the loop, the operands' inside it.
#pragma kopt optimize launch(grid: (n + 15) / 16, (m + 15) / 16; block: 16, 16) \
    args(m = 100, n = 70, p = 50) buffers(A[m * p] in, B[p * n] in, C[m * n] out) noalias
__global__ void matMulIndexed(const float *A, const float *B, float *C, int m, int n, int p) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    int out = row * n + col;
    C[out] = 0;
    for (int k = 0; k < p; ++k) {
      int aRow = row * p;
      int ia = aRow + k;
      int ib = k * n + col;
      C[out] += A[ia] * B[ib];
    }
  }
}

// A batch of products, the batch from blockIdx.z, offsets written out.
#pragma kopt optimize launch(grid: (n + 15) / 16, (m + 15) / 16, batch; block: 16, 16) \
    args(batch = 3, m = 40, n = 33, p = 17) \
    buffers(A[batch * m * p] in, B[batch * p * n] in, C[batch * m * n] out)
__global__ void matMulBatched(const float *A, const float *B, float *C, int batch, int m, int n,
                              int p) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float acc = 0;
    for (int k = 0; k < p; k++)
      acc += A[blockIdx.z * m * p + row * p + k] * B[blockIdx.z * p * n + k * n + col];
    C[blockIdx.z * m * n + row * n + col] = acc;
  }
}

// y = A x on 2D arrays, one thread a row, accumulated in y.
#pragma kopt optimize launch(grid: (M_DIM + 127) / 128; block: 128) \
    buffers(A[M_DIM * N_DIM] in, x[N_DIM] in, y[M_DIM] out) noalias
__global__ void matVec2D(const float (*A)[N_DIM], const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M_DIM) {
    y[i] = 0.0f;
    for (int j = 0; j < N_DIM; j++)
      y[i] += A[i][j] * x[j];
  }
}

// The thread geometry through named locals, as the CUDA samples and course
// notes write it (bx, by, tx, ty; two in one declaration).
#pragma kopt optimize launch(grid: (n + 15) / 16, (m + 15) / 16; block: 16, 16) \
    args(m = 100, n = 70, p = 50) buffers(A[m * p] in, B[p * n] in, C[m * n] out) noalias
__global__ void matMulNamedGeometry(const float *A, const float *B, float *C, int m, int n, int p) {
  int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  int Row = by * blockDim.y + ty;
  int Col = bx * blockDim.x + tx;
  if (Row < m && Col < n) {
    float Pvalue = 0;
    for (int k = 0; k < p; ++k)
      Pvalue += A[Row * p + k] * B[k * n + Col];
    C[Row * n + Col] = Pvalue;
  }
}
