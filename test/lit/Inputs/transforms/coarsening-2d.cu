// Two- and three-dimensional kernels for the thread-coarsening-2d test, in the
// spellings of image-processing samples, Rodinia, PolyBench and a 3-D solver.
// The pragmas give the sizes an application launches (thread-coarsening-2d
// counts the threads a launch starts); the test emulates them at small sizes.

// An image blur as CUDA samples write it: x and y named, restrict pointers,
// an early return at the image's edge, a 5-point cross clamped at the border.
#pragma kopt optimize launch(grid: (w + 31) / 32, (h + 7) / 8; block: 32, 8) \
    args(w = 4096, h = 4096) buffers(src[w * h] in, dst[w * h] out)
__global__ void blur_cross(const float *__restrict__ src, float *__restrict__ dst, int w, int h) {
  const int x = blockDim.x * blockIdx.x + threadIdx.x;
  const int y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const int up = y > 0 ? y - 1 : y, down = y < h - 1 ? y + 1 : y;
  const int left = max(x - 1, 0), right = min(x + 1, w - 1);
  dst[y * w + x] = 0.2f * (src[y * w + x] + src[up * w + x] + src[down * w + x] +
                           src[y * w + left] + src[y * w + right]);
}

// A thermal step in Rodinia's manner: block and thread indices in locals, the
// neighbours read under conditions at the edges, a second input read in place.
#pragma kopt optimize launch(grid: (cols + 15) / 16, (rows + 15) / 16; block: 16, 16) \
    args(rows = 4096, cols = 4096, cap = 0.5f) \
    buffers(power[rows * cols] in, temp[rows * cols] in, result[rows * cols] out) noalias
__global__ void thermal_step(const float *power, const float *temp, float *result, int rows,
                             int cols, float cap) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = bx * blockDim.x + tx;
  int r = by * blockDim.y + ty;
  if (r < rows && c < cols) {
    float centre = temp[r * cols + c];
    float vertical = (r > 0 ? temp[(r - 1) * cols + c] : centre) +
                     (r + 1 < rows ? temp[(r + 1) * cols + c] : centre);
    float horizontal = (c > 0 ? temp[r * cols + c - 1] : centre) +
                       (c + 1 < cols ? temp[r * cols + c + 1] : centre);
    result[r * cols + c] = centre + cap * (power[r * cols + c] + vertical + horizontal - 4.0f * centre);
  }
}

// PolyBench's FDTD electric half step on fixed-width 2-D arrays, double: its
// own element updated in place, the first row from a source term.
#define FW 70
#pragma kopt optimize launch(grid: (FW + 31) / 32, (nx + 7) / 8; block: 32, 8) \
    args(nx = 65536, t = 3) buffers(fict[8] in, ey[nx * FW] inout, hz[nx * FW] in) noalias
__global__ void fdtd_ey_step(int nx, const double *fict, int t, double (*ey)[FW],
                             const double (*hz)[FW]) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= FW || i >= nx)
    return;
  ey[i][j] = i == 0 ? fict[t] : ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
}

// Textbook 2-D arrays with the row from x (threadIdx first), so y walks the
// columns, double, the boundary by an early return.
#pragma kopt optimize launch(grid: (h + 15) / 16, (FW + 15) / 16; block: 16, 16) \
    args(h = 65536) buffers(in[h * FW] in, out[h * FW] out) noalias
__global__ void smooth_by_rows(int h, const double (*in)[FW], double (*out)[FW]) {
  int row = threadIdx.x + blockIdx.x * blockDim.x;
  int col = threadIdx.y + blockIdx.y * blockDim.y;
  if (row < 1 || row > h - 2 || col < 1 || col > FW - 2)
    return;
  out[row][col] = 0.5 * in[row][col] + 0.125 * (in[row - 1][col] + in[row + 1][col] +
                                                in[row][col - 1] + in[row][col + 1]);
}

// A 3-D Jacobi sweep of a solver: i from x, j from y, k from z, the centre
// index in a local, the interior guard as one condition.
#pragma kopt optimize launch(grid: (nx + 31) / 32, (ny + 3) / 4, (nz + 1) / 2; block: 32, 4, 2) \
    args(nx = 256, ny = 256, nz = 256, w = 0.125f) buffers(u[nx * ny * nz] in, v[nx * ny * nz] out) noalias
__global__ void jacobi3d(int nx, int ny, int nz, float w, const float *u, float *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i > 0 && j > 0 && k > 0 && i < nx - 1 && j < ny - 1 && k < nz - 1) {
    long c = ((long)k * ny + j) * nx + i;
    v[c] = w * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + u[c - (long)nx * ny] +
                u[c + (long)nx * ny]) + (1.0f - 6.0f * w) * u[c];
  }
}

// The same blur over a small image: 64 x 64 threads cannot fill a GPU, fewer
// threads would leave more of it idle.
#pragma kopt optimize launch(grid: (w + 31) / 32, (h + 7) / 8; block: 32, 8) \
    args(w = 64, h = 64) buffers(src[w * h] in, dst[w * h] out)
__global__ void small_blur(const float *__restrict__ src, float *__restrict__ dst, int w, int h) {
  const int x = blockDim.x * blockIdx.x + threadIdx.x;
  const int y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x < w && y < h)
    dst[y * w + x] = src[y * w + x];
}
