// class: linalg
// Square matrix product in the manner of the textbook's first matrix kernel (Kirk & Hwu):
// P = M * N with M, N, P as the names, Width as a parameter, Row from y and Col from x,
// a register Pvalue, `++k`, and a grid of (Width - 1) / TILE_WIDTH + 1 blocks.
// Width 3000 is not a multiple of the 16 x 16 tile, so the guard matters at full size.
// Naive estimate on the H100: 2.7e10 multiply-adds, like bench/kernels' matmul_square
// scaled by (3000/4096)^3: ~11 ms.
// Check: 2048 sampled elements of P recomputed in double.
#include "textbook_util.h"

#define TILE_WIDTH 16
#define WIDTH 3000

#pragma kopt optimize launch(grid: (Width - 1) / TILE_WIDTH + 1, (Width - 1) / TILE_WIDTH + 1; \
    block: TILE_WIDTH, TILE_WIDTH) args(Width = WIDTH) \
    buffers(M[Width * Width] in, N[Width * Width] in, P[Width * Width] out) tol(rtol = 1e-3, atol = 1e-3)
__global__ void MatrixMulKernel(float *M, float *N, float *P, int Width) {
  // Calculate the row index of the P element and M
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  // Calculate the column index of P and N
  int Col = blockIdx.x * blockDim.x + threadIdx.x;

  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    // each thread computes one element of the block sub-matrix
    for (int k = 0; k < Width; ++k) {
      Pvalue += M[Row * Width + k] * N[k * Width + Col];
    }
    P[Row * Width + Col] = Pvalue;
  }
}

int main() {
  int Width = WIDTH;
  size_t size = (size_t)Width * Width;
  float *Md = bench::uniformBuffer(size, 11);
  float *Nd = bench::uniformBuffer(size, 12);
  float *Pd = bench::deviceAlloc<float>(size);

  dim3 dimGrid((Width - 1) / TILE_WIDTH + 1, (Width - 1) / TILE_WIDTH + 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  float ms = bench::medianMs([&] { MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width); });

  auto ref = [&](size_t idx) {
    size_t row = idx / Width, col = idx % Width;
    double sum = 0;
    for (size_t k = 0; k < (size_t)Width; k++)
      sum += double(bench::uniformAt(11, row * Width + k)) * bench::uniformAt(12, k * Width + col);
    return sum;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(Pd, size, 2048, ref, 1e-3, 1e-3));
}
