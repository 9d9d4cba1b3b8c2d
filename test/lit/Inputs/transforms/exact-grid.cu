// Kernels written for a launch that covers their data exactly, with no bounds
// check (test/lit/transforms/launch-extent.test): under the pragma's
// launch each thread's position is below grid * block, so the chains of
// transforms start from the kernel with that check written in.
#define TILE_WIDTH 16
#define BLOCK 256

// Kirk and Hwu's first product: Width a multiple of TILE_WIDTH, no check.
#pragma kopt optimize launch(grid: Width / TILE_WIDTH, Width / TILE_WIDTH; block: TILE_WIDTH, TILE_WIDTH) \
    args(Width = 512) buffers(Md[Width * Width] in, Nd[Width * Width] in, Pd[Width * Width] out) \
    tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
  int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  float Pvalue = 0;
  for (int k = 0; k < Width; ++k)
    Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
  Pd[Row * Width + Col] = Pvalue;
}

// The programming guide's vector addition, n a multiple of the block.
#pragma kopt optimize launch(grid: n / BLOCK; block: BLOCK) args(n = 1 << 20) \
    buffers(x[n] in, y[n] inout) noalias
__global__ void saxpy_exact(const float *x, float *y, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  y[i] = 2.0f * x[i] + y[i];
}

// Rodinia's manner: aliases of the geometry and a literal block size.
#pragma kopt optimize launch(grid: cols / 16, rows / 16; block: 16, 16) args(rows = 2048, cols = 2048) \
    buffers(in[rows * cols] in, out[rows * cols] out) noalias
__global__ void scale_rows(const float *in, float *out, int rows, int cols) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = by * 16 + ty;
  int col = bx * 16 + tx;
  out[row * cols + col] = in[row * cols + col] * (float)(row + 1) - in[col];
}

// The column is checked already: only the row gets a check.
#pragma kopt optimize launch(grid: (m + 31) / 32, n / 8; block: 32, 8) args(n = 2048, m = 2000) \
    buffers(a[n * m] in, b[n * m] out) noalias
__global__ void column_checked(const float *a, float *b, int n, int m) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < m)
    b[r * m + c] = a[r * m + c] + 1.0f;
}

// A load before the position: a variant's extra threads would run it
// unchecked, so nothing is written in.
#pragma kopt optimize launch(grid: n / BLOCK; block: BLOCK) args(n = 1 << 20) \
    buffers(s[1] in, x[n] in, y[n] out) noalias
__global__ void scaled_first(const float *s, const float *x, float *y, int n) {
  float k = s[0];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = k * x[i];
}

// CUDA by Example's manner: the row's width read from the grid, edges
// clamped by hand, no bounds check.
#pragma kopt optimize launch(grid: dim / 16, dim / 16; block: 16, 16) args(dim = 2048) \
    buffers(out[dim * dim] out, in[dim * dim] in) noalias
__global__ void blend_kernel(float *out, const float *in, int dim) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  int y = threadIdx.y + blockIdx.y * blockDim.y;
  int offset = x + y * blockDim.x * gridDim.x;
  int left = offset - 1;
  int right = offset + 1;
  if (x == 0) left++;
  if (x == dim - 1) right--;
  int top = offset - dim;
  int bottom = offset + dim;
  if (y == 0) top += dim;
  if (y == dim - 1) bottom -= dim;
  out[offset] = in[offset] + 0.25f * (in[top] + in[bottom] + in[left] + in[right] - in[offset] * 4);
}

// A grid-stride loop keeps its gridDim: the grid-stride transforms take it.
#pragma kopt optimize launch(grid: 120; block: 256) args(n = 1 << 20) buffers(x[n] in, y[n] out) noalias
__global__ void scale_strided(const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = 3.0f * x[i];
}
