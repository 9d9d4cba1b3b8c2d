// Kernels written for one block size, the size a constant in their global
// index: textbooks' TILE_WIDTH, Rodinia's BLOCK_SIZE after aliases of the
// geometry, a literal on the left. For the block-dim-constants normalization's
// test: under the launch contract the constant reads as blockDim.
#define BLOCK 256
#define TILE_WIDTH 16
#define BLOCK_SIZE 16

// 1-D, a macro constant after blockIdx.
#pragma kopt optimize launch(grid: (n + BLOCK - 1) / BLOCK; block: BLOCK) \
    args(n = 1 << 24, a = 2.0f) buffers(x[n] in, y[n] inout) noalias
__global__ void axpy_block(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// Kirk and Hwu's product before tiling, the tile's width as the block's.
#pragma kopt optimize launch(grid: (Width + TILE_WIDTH - 1) / TILE_WIDTH, \
    (Width + TILE_WIDTH - 1) / TILE_WIDTH; block: TILE_WIDTH, TILE_WIDTH) args(Width = 2048) \
    buffers(M[Width * Width] in, N[Width * Width] in, P[Width * Width] out) noalias
__global__ void MatrixMulTile(const float *M, const float *N, float *P, int Width) {
  int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k)
      Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
  }
}

// Rodinia's manner: the geometry in locals, the size a macro after them, and
// a literal on the left.
#pragma kopt optimize launch(grid: (cols + 15) / 16, (rows + 15) / 16; block: BLOCK_SIZE, BLOCK_SIZE) \
    args(rows = 4096, cols = 4096) buffers(in[rows * cols] in, out[rows * cols] out) noalias
__global__ void smooth_rows(const float *in, float *out, int rows, int cols) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = bx * BLOCK_SIZE + tx;
  int r = 16 * by + ty;
  if (r > 0 && r < rows - 1 && c < cols)
    out[r * cols + c] =
        0.25f * in[(r - 1) * cols + c] + 0.5f * in[r * cols + c] + 0.25f * in[(r + 1) * cols + c];
}

// Not the launch's block: 128 threads a block that stride by 256 (a second
// launch covers the other half).
#pragma kopt optimize launch(grid: n / 256; block: 128) args(n = 1 << 20) buffers(x[n] inout) noalias
__global__ void half_blocks(int n, float *x) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    x[i] = 2.0f * x[i];
}

// The product inside a macro: left as written.
#define GLOBAL_ID (blockIdx.x * BLOCK + threadIdx.x)
#pragma kopt optimize launch(grid: (n + BLOCK - 1) / BLOCK; block: BLOCK) args(n = 1 << 24) \
    buffers(x[n] inout) noalias
__global__ void scale_macro(int n, float *x) {
  int i = GLOBAL_ID;
  if (i < n)
    x[i] = 3.0f * x[i];
}
