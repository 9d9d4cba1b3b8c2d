// Two-dimensional stencils in the spellings of common codes, written for the
// stencil-tiling and block-shape-2d tests: flattened and 2-D subscripts, the
// row from y or from x, interior guards, full guards with clamped reads, macro
// sizes and parameters, float and double.
#define N 100
#define W 90

// A Jacobi sweep as benchmark suites write it: flattened, the size a macro,
// i from y and j from x, the interior guard as one condition.
#pragma kopt optimize launch(grid: (N + 31) / 32, (N + 7) / 8; block: 32, 8) \
    buffers(A[N * N] in, B[N * N] out) noalias
__global__ void jacobi2d(const float *A, float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 1) && (i < N - 1) && (j >= 1) && (j < N - 1))
    B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (j + 1)] +
                           A[(i + 1) * N + j] + A[(i - 1) * N + j]);
}

// Textbook 2-D arrays of a fixed width, the row from x (threadIdx first),
// double, an early return for the boundary.
#pragma kopt optimize launch(grid: (h + 15) / 16, (W + 15) / 16; block: 16, 16) \
    args(h = 70) buffers(in[h * W] in, out[h * W] out) noalias
__global__ void jacobi_rows(int h, const double (*in)[W], double (*out)[W]) {
  int row = threadIdx.x + blockIdx.x * blockDim.x;
  int col = threadIdx.y + blockIdx.y * blockDim.y;
  if (row < 1 || row > h - 2 || col < 1 || col > W - 2)
    return;
  out[row][col] =
      0.25 * (in[row - 1][col] + in[row + 1][col] + in[row][col - 1] + in[row][col + 1]);
}

// An image-style heat step: every pixel is updated, the neighbours clamped at
// the edges (min/max and conditional expressions), sizes as parameters.
#pragma kopt optimize launch(grid: (w + 15) / 16, (h + 15) / 16; block: 16, 16) \
    args(w = 77, h = 41, k = 0.1f) buffers(out[w * h] out, in[w * h] in) noalias
__global__ void heat_clamped(float *out, const float *in, int w, int h, float k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    int c = y * w + x;
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
    int yu = y > 0 ? y - 1 : 0;
    int yd = y < h - 1 ? y + 1 : h - 1;
    out[c] = in[c] + k * (in[y * w + xl] + in[y * w + xr] + in[yu * w + x] + in[yd * w + x] -
                          4.0f * in[c]);
  }
}

// A thermal step in the style of Rodinia's hotspot: the reads themselves are
// conditional at the edges, and a second input (the power) is read in place.
#pragma kopt optimize launch(grid: (cols + 15) / 16, (rows + 15) / 16; block: 16, 16) \
    args(rows = 45, cols = 61, cap = 0.5f) \
    buffers(power[rows * cols] in, temp[rows * cols] in, result[rows * cols] out) noalias
__global__ void hotspot_step(const float *power, const float *temp, float *result, int rows,
                             int cols, float cap) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * blockDim.x + tx;
  int r = blockIdx.y * blockDim.y + ty;
  if (r >= rows || c >= cols)
    return;
  int idx = r * cols + c;
  float t = temp[idx];
  float north = (r == 0) ? t : temp[idx - cols];
  float south = (r == rows - 1) ? t : temp[idx + cols];
  float west = (c == 0) ? t : temp[idx - 1];
  float east = (c == cols - 1) ? t : temp[idx + 1];
  result[idx] = t + cap * (power[idx] + (north + south - 2.0f * t) + (east + west - 2.0f * t));
}

// An FDTD magnetic-field update reading two fields at offsets, one of them
// with a pitch of ny + 1, and updating a third in place.
#pragma kopt optimize launch(grid: (ny + 31) / 32, (nx + 7) / 8; block: 32, 8) \
    args(nx = 50, ny = 70) \
    buffers(ex[nx * (ny + 1)] in, ey[(nx + 1) * ny] in, hz[nx * ny] inout) noalias
__global__ void fdtd_hz(int nx, int ny, const float *ex, const float *ey, float *hz) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx - 1 && j < ny - 1)
    hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] +
                                              ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

// The electric-field half step: the first row comes from a source term, the
// others read hz at two offsets under an else.
#pragma kopt optimize launch(grid: (ny + 31) / 32, (nx + 7) / 8; block: 32, 8) \
    args(nx = 50, ny = 70, t = 3) buffers(fict[8] in, ey[nx * ny] inout, hz[nx * ny] in) noalias
__global__ void fdtd_ey(int nx, int ny, const float *fict, int t, float *ey, const float *hz) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0)
      ey[i * ny + j] = fict[t];
    else
      ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

// A 3 x 3 convolution with literal coefficients in locals, as PolyBench
// writes it (j from x, i from y, the guard's parts in another order).
#pragma kopt optimize launch(grid: (nj + 31) / 32, (ni + 7) / 8; block: 32, 8) \
    args(ni = 60, nj = 75) buffers(A[ni * nj] in, B[ni * nj] out) noalias
__global__ void conv2d(int ni, int nj, const float *A, float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
  float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
  if ((i < ni - 1) && (j < nj - 1) && (i > 0) && (j > 0))
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c12 * A[(i + 0) * nj + (j - 1)] +
                    c13 * A[(i + 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + (j + 0)] +
                    c22 * A[(i + 0) * nj + (j + 0)] + c23 * A[(i + 1) * nj + (j + 0)] +
                    c31 * A[(i - 1) * nj + (j + 1)] + c32 * A[(i + 0) * nj + (j + 1)] +
                    c33 * A[(i + 1) * nj + (j + 1)];
}

// A 5 x 5 filter applied through two loops with literal bounds, double.
#pragma kopt optimize launch(grid: (m + 15) / 16, (n + 15) / 16; block: 16, 16) \
    args(n = 40, m = 53) buffers(img[n * m] in, filt[25] in, res[n * m] out) noalias
__global__ void conv_filter(const double *img, const double *filt, double *res, int n, int m) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 2 && i < n - 2 && j >= 2 && j < m - 2) {
    double s = 0.0;
    for (int di = -2; di <= 2; ++di)
      for (int dj = -2; dj <= 2; ++dj)
        s += filt[(di + 2) * 5 + (dj + 2)] * img[(i + di) * m + (j + dj)];
    res[i * m + j] = s;
  }
}
