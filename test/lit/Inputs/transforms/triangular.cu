// One thread a column, a triangular loop over the other columns around a sum
// over samples, written the ways statistics and linear algebra codes write
// it. For the loop-to-grid tests (and inner-loop-parallel on the same).
#define N_SAMPLES 37
#define N_VARS 45

// Correlation (PolyBench-like): the diagonal set before the loop, j2 from
// j1 + 1, the sum kept in the output, the mirror store, counters declared
// before their loops.
#pragma kopt optimize launch(grid: (N_VARS + 255) / 256; block: 256) \
    buffers(symmat[N_VARS * N_VARS] inout, data[N_SAMPLES * N_VARS] in) noalias
__global__ void corr(float *symmat, float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  int i, j2;
  if (j1 < (N_VARS - 1)) {
    symmat[j1 * N_VARS + j1] = 1.0;
    for (j2 = (j1 + 1); j2 < N_VARS; j2++) {
      symmat[j1 * N_VARS + j2] = 0.0;
      for (i = 0; i < N_SAMPLES; i++) {
        symmat[j1 * N_VARS + j2] += data[i * N_VARS + j1] * data[i * N_VARS + j2];
      }
      symmat[j2 * N_VARS + j1] = symmat[j1 * N_VARS + j2];
    }
  }
}

// Covariance over 2D arrays (textbook): a parameter count, the sum in a
// register, an early return, the divisor in the store.
#define M_COLS 40
#pragma kopt optimize launch(grid: (M_COLS + 127) / 128; block: 128) args(n = 29) \
    buffers(x[n * M_COLS] in, cov[M_COLS * M_COLS] out) noalias
__global__ void covar2d(int n, const double (*x)[M_COLS], double (*cov)[M_COLS]) {
  const int j = threadIdx.x + blockIdx.x * blockDim.x;
  if (j >= M_COLS)
    return;
  for (int k = j; k < M_COLS; ++k) {
    double s = 0.0;
    for (int r = 0; r < n; ++r)
      s += x[r][j] * x[r][k];
    cov[j][k] = s / (n - 1);
    cov[k][j] = s / (n - 1);
  }
}

// A lower-triangular Gram matrix (Rodinia-like): a parameter stride, an index
// local, col <= row, k += 1.
#pragma kopt optimize launch(grid: (m + 63) / 64; block: 64) args(m = 33, len = 50) \
    buffers(v[len * m] in, g[m * m] out) noalias
__global__ void gram_lower(int m, int len, const float *v, float *g) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    for (int col = 0; col <= row; col += 1) {
      int idx = row * m + col;
      float dot = 0.0f;
      for (int k = 0; k < len; k += 1)
        dot += v[k * m + row] * v[k * m + col];
      g[idx] = dot;
    }
  }
}

// A whole output row a thread (a textbook matrix product): the loop over
// columns holds the sum over k.
#pragma kopt optimize launch(grid: (ni + 127) / 128; block: 128) args(ni = 20, nj = 70, nk = 30) \
    buffers(A[ni * nk] in, B[nk * nj] in, C[ni * nj] out) noalias
__global__ void row_product(int ni, int nj, int nk, const float *A, const float *B, float *C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < ni) {
    for (int j = 0; j < nj; j++) {
      float t = 0.0f;
      for (int k = 0; k < nk; k++)
        t += A[i * nk + k] * B[k * nj + j];
      C[i * nj + j] = t;
    }
  }
}

// Refused: every iteration adds into the same element (a sum over j2, not a
// loop of independent outputs).
#pragma kopt optimize launch(grid: (N_VARS + 255) / 256; block: 256) \
    buffers(rowsum[N_VARS] out, data[N_SAMPLES * N_VARS] in) noalias
__global__ void row_total(float *rowsum, float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < N_VARS) {
    rowsum[j1] = 0.0f;
    for (int j2 = j1; j2 < N_VARS; j2++)
      rowsum[j1] += data[j1 * N_VARS + j2];
  }
}

// Refused: the mirror store is off by one column, onto another iteration's
// element.
#pragma kopt optimize launch(grid: (N_VARS + 255) / 256; block: 256) \
    buffers(symmat[N_VARS * N_VARS + 1] inout, data[N_SAMPLES * N_VARS] in) noalias
__global__ void mirror_off(float *symmat, float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < N_VARS) {
    for (int j2 = j1; j2 < N_VARS; j2++) {
      float s = 0.0f;
      for (int i = 0; i < N_SAMPLES; i++)
        s += data[i * N_VARS + j1] * data[i * N_VARS + j2];
      symmat[j1 * N_VARS + j2] = s;
      symmat[j2 * N_VARS + j1 + 1] = s;
    }
  }
}

// Refused: a running value carried from one iteration to the next.
#pragma kopt optimize launch(grid: (N_VARS + 255) / 256; block: 256) \
    buffers(out[N_VARS * N_VARS] out, data[N_SAMPLES * N_VARS] in) noalias
__global__ void running(float *out, float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < N_VARS) {
    float carry = 0.0f;
    for (int j2 = 0; j2 < N_VARS; j2++) {
      carry = carry * 0.5f + data[j1 * N_VARS + j2];
      out[j1 * N_VARS + j2] = carry;
    }
  }
}

// Refused: the code after the loop reads what the loop's other iterations
// wrote (the y threads never wait for each other).
#pragma kopt optimize launch(grid: (N_VARS + 255) / 256; block: 256) \
    buffers(out[N_VARS * N_VARS] out, data[N_SAMPLES * N_VARS] in, last[N_VARS] out) noalias
__global__ void read_after(float *out, float *data, float *last) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < N_VARS) {
    for (int j2 = 0; j2 < N_VARS; j2++)
      out[j1 * N_VARS + j2] = 2.0f * data[j1 * N_VARS + j2];
    last[j1] = out[j1 * N_VARS + N_VARS - 1];
  }
}
