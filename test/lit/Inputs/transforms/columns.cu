// Kernels with too little parallelism, one thread per output and a long loop
// each, written in the ways numerical codes write them: macro sizes and
// parameters, float and double, flattened and 2D subscripts, accumulators in
// registers and in global memory, early returns and if blocks, counters
// declared before their loops. For the inner-loop-parallel tests.
#define NS 61
#define NV 77
#define FLOAT_NS 61.0

// A column mean, sample-major data with a border row and column (indices
// from 1), the sum kept in the output itself.
#pragma kopt optimize launch(grid: (NV + 255) / 256; block: 256) \
    buffers(mean[NV + 1] out, data[(NS + 1) * (NV + 1)] in) noalias
__global__ void col_mean(double *mean, double *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int i;
  if ((j >= 1) && (j < (NV + 1))) {
    mean[j] = 0.0;
    for (i = 1; i < (NS + 1); i++) {
      mean[j] += data[i * (NV + 1) + j];
    }
    mean[j] /= FLOAT_NS;
  }
}

// A column standard deviation over a 2D array, the sum in a register.
#define COLS 90
#pragma kopt optimize launch(grid: (COLS + 127) / 128; block: 128) args(n = 45) \
    buffers(x[n * COLS] in, mu[COLS] in, sd[COLS] out)
__global__ void col_stddev(int n, const float (*x)[COLS], const float *mu, float *sd) {
  const int col = threadIdx.x + blockDim.x * blockIdx.x;
  if (col >= COLS)
    return;
  float acc = 0.f;
  for (int r = 0; r < n; ++r) {
    float d = x[r][col] - mu[col];
    acc += d * d;
  }
  sd[col] = sqrtf(acc / n + 1e-6f);
}

// y += A^T x, one thread a column: adds into what y holds.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(m = 70, n = 100) \
    buffers(A[m * n] in, x[m] in, y[n] inout) noalias
__global__ void matvec_t(int m, int n, const float *A, const float *x, float *y) {
  int j = blockDim.x * blockIdx.x + threadIdx.x;
  if (j < n) {
    for (int i = 0; i < m; i += 1)
      y[j] += A[i * n + j] * x[i];
  }
}

// tmp = A x, one thread a row, the sum kept in the output.
#define NX 83
#define NY 120
#pragma kopt optimize launch(grid: (NX + 255) / 256; block: 256) \
    buffers(A[NX * NY] in, x[NY] in, tmp[NX] out) noalias
__global__ void atax_rows(float *A, float *x, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < NX) {
    int j;
    tmp[i] = 0;
    for (j = 0; j < NY; j++) {
      tmp[i] += A[i * NY + j] * x[j];
    }
  }
}

// Two sums in one loop, both in global memory, then alpha and beta.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) \
    args(n = 75, alpha = 1.5f, beta = 1.2f) \
    buffers(a[n * n] in, b[n * n] in, x[n] in, y[n] out, tmp[n] out) noalias
__global__ void gesummv(int n, float alpha, float beta, float *a, float *b, float *x, float *y,
                        float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j;
    tmp[i] = 0;
    y[i] = 0;
    for (j = 0; j < n; j++) {
      tmp[i] += a[i * n + j] * x[j];
      y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

// A rank-k update, one thread an output of a 2D grid (i from y), the second
// operand read a row apart between neighbouring threads.
#pragma kopt optimize launch(grid: (n + 31) / 32, (n + 7) / 8; block: 32, 8) \
    args(n = 50, m = 70, alpha = 0.5, beta = 2.0) buffers(a[n * m] in, c[n * n] inout) noalias
__global__ void syrk(int n, int m, double alpha, double beta, const double *a, double *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < n) && (j < n)) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++) {
      c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
    }
  }
}

// Covariance: one thread a column j1, a triangular loop over j2 around the
// sum over samples, and the symmetric store.
#pragma kopt optimize launch(grid: (NV + 255) / 256; block: 256) \
    buffers(symmat[(NV + 1) * (NV + 1)] inout, data[(NS + 1) * (NV + 1)] in) noalias
__global__ void covar(double *symmat, double *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int i, j2;
  if ((j1 >= 1) && (j1 < (NV + 1))) {
    for (j2 = j1; j2 < (NV + 1); j2++) {
      symmat[j1 * (NV + 1) + j2] = 0.0;
      for (i = 1; i < (NS + 1); i++) {
        symmat[j1 * (NV + 1) + j2] += data[i * (NV + 1) + j1] * data[i * (NV + 1) + j2];
      }
      symmat[j2 * (NV + 1) + j1] = symmat[j1 * (NV + 1) + j2];
    }
  }
}

// y = A^T tmp, one thread a column (PolyBench-like: the sum kept in y, macro
// sizes, y set to zero before the loop).
#pragma kopt optimize launch(grid: (NY + 255) / 256; block: 256) \
    buffers(A[NX * NY] in, tmp[NX] in, y[NY] out) noalias
__global__ void atax_cols(float *A, float *tmp, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < NY) {
    int i;
    y[j] = 0;
    for (i = 0; i < NX; i++)
      y[j] = y[j] + A[i * NY + j] * tmp[i];
  }
}

// x2 += a^T y2 over a 2D array, double, an early return (mvt's second half).
#define NN 96
#pragma kopt optimize launch(grid: (NN + 63) / 64; block: 64) \
    buffers(a[NN * NN] in, y2[NN] in, x2[NN] inout) noalias
__global__ void mvt_cols(const double (*a)[NN], const double *y2, double *x2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= NN)
    return;
  double sum = x2[i];
  for (int j = 0; j < NN; ++j)
    sum += a[j][i] * y2[j];
  x2[i] = sum;
}

// Column variance from two sums in one loop (sum and sum of squares), j += 1.
#pragma kopt optimize launch(grid: (cols + 127) / 128; block: 128) args(rows = 52, cols = 80) \
    buffers(x[rows * cols] in, var[cols] out)
__global__ void col_var(int rows, int cols, const float *x, float *var) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float s = 0.0f, ss = 0.0f;
    for (int r = 0; r < rows; r += 1) {
      float v = x[r * cols + c];
      s += v;
      ss += v * v;
    }
    float m = s / rows;
    var[c] = ss / rows - m * m;
  }
}

// Refused: a recurrence (Horner's rule) is not a reduction.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 64, m = 30) \
    buffers(c[n * m] in, x[n] in, y[n] out)
__global__ void horner(int n, int m, const float *c, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float p = 0.0f;
    for (int k = 0; k < m; ++k)
      p = p * x[i] + c[i * m + k];
    y[i] = p;
  }
}

// Refused: the loop writes w[k] and reads w[k + 1], which another lane writes.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 64, m = 30) \
    buffers(w[n * (m + 1)] inout, y[n] out)
__global__ void shift_sum(int n, int m, float *w, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float *row = w + i * (m + 1);
    float s = 0.0f;
    for (int k = 0; k < m; ++k) {
      row[k] = 2.0f * row[k];
      s += row[k + 1];
    }
    y[i] = s;
  }
}

// Refused: the sum's location is read through another pointer into its buffer.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 64) \
    buffers(v[n + 1] inout)
__global__ void self_sum(int n, float *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *src = v + 1;
    for (int k = 0; k < n; ++k)
      v[i] += src[k];
  }
}

// One thread does all the work (the others of a full block wait at the guard):
// Gram-Schmidt's column norm as PolyBench-GPU writes it, the sum in a local.
#pragma kopt optimize launch(grid: 1; block: 256) args(k = 3) \
    buffers(a[NS * NV] in, r[NV * NV] inout) noalias
__global__ void norm_one_thread(float *a, float *r, int k) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) {
    float nrm = 0.0;
    int i;
    for (i = 0; i < NS; i++) {
      nrm += a[i * NV + k] * a[i * NV + k];
    }
    r[k * NV + k] = sqrt(nrm);
  }
}

// The same idea with an early exit and the sum in global memory: a dot
// product into out[0] by the grid's first thread.
#pragma kopt optimize launch(grid: 1; block: 32) args(n = 1000) \
    buffers(x[n] in, y[n] in, out[1] out) noalias
__global__ void dot_one_thread(int n, const double *x, const double *y, double *out) {
  if (blockIdx.x * blockDim.x + threadIdx.x != 0)
    return;
  out[0] = 0.0;
  for (int i = 0; i < n; ++i)
    out[0] += x[i] * y[i];
}

// A row sum with the geometry through named locals (tid, bid), as course
// notes write it.
#pragma kopt optimize launch(grid: (rows + 127) / 128; block: 128) args(rows = 300, cols = 500) \
    buffers(m[rows * cols] in, s[rows] out) noalias
__global__ void row_sum_named(int rows, int cols, const float *m, float *s) {
  int tid = threadIdx.x;
  int bid = blockIdx.x;
  int row = bid * blockDim.x + tid;
  if (row < rows) {
    float acc = 0.0f;
    for (int c = 0; c < cols; c++)
      acc += m[row * cols + c];
    s[row] = acc;
  }
}

// Gram-Schmidt's update of a later column j: the projection summed over the
// rows into r in global memory, then every row of column j updated with it
// (a store a row apart in each iteration: a[i * NV + j]).
#pragma kopt optimize launch(grid: (NV + 255) / 256; block: 256) args(k = 2) \
    buffers(a[NS * NV] inout, r[NV * NV] inout, q[NS * NV] in) noalias
__global__ void column_update(float *a, float *r, float *q, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((j > k) && (j < NV)) {
    r[k * NV + j] = 0.0;
    int i;
    for (i = 0; i < NS; i++)
      r[k * NV + j] += q[i * NV + k] * a[i * NV + j];
    for (i = 0; i < NS; i++)
      a[i * NV + j] -= q[i * NV + k] * r[k * NV + j];
  }
}

// The same update with the row length a parameter: the check j < n on the
// thread's position keeps n >= 1, so the rows are distinct elements.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(m = 40, n = 30) \
    buffers(a[m * n] inout, q[m] in, r[n] in) noalias
__global__ void column_update_n(int m, int n, float *a, const float *q, const float *r) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n)
    return;
  for (int i = 0; i < m; i++)
    a[i * n + j] -= q[i] * r[j];
}

// A stride that nothing keeps from 0 (ld checked nowhere): were it 0, every
// iteration would store one element, so the loop is not spread.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(m = 40, n = 30, ld = 30) \
    buffers(a[m * ld + n] inout, q[m] in) noalias
__global__ void column_update_ld(int m, int n, int ld, float *a, const float *q) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    for (int i = 0; i < m; i++)
      a[i * ld + j] *= q[i];
}
