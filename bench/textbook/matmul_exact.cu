// class: linalg
// Square matrix product as the first edition of Kirk & Hwu writes it (Figure 4.7):
// Md, Nd, Pd, TILE_WIDTH in both indices, and no bounds check at all, because the
// host launches Width / TILE_WIDTH blocks a side and Width is a multiple of the tile.
// Naive estimate on the H100: 6.9e10 multiply-adds in 16 x 16 blocks, ~40 ms.
// Check: 2048 sampled elements of Pd recomputed in double.
#include "textbook_util.h"

#define TILE_WIDTH 16
#define WIDTH 4096

#pragma kopt optimize launch(grid: Width / TILE_WIDTH, Width / TILE_WIDTH; block: TILE_WIDTH, TILE_WIDTH) \
    args(Width = WIDTH) buffers(Md[Width * Width] in, Nd[Width * Width] in, Pd[Width * Width] out) \
    tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
  // Calculate the row index of the Pd element and M
  int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  // Calculate the column index of Pd and N
  int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;

  float Pvalue = 0;
  // each thread computes one element of the block sub-matrix
  for (int k = 0; k < Width; ++k)
    Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];

  Pd[Row * Width + Col] = Pvalue;
}

int main() {
  int Width = WIDTH;
  size_t size = (size_t)Width * Width;
  float *Md = bench::uniformBuffer(size, 21);
  float *Nd = bench::uniformBuffer(size, 22);
  float *Pd = bench::deviceAlloc<float>(size);

  dim3 dimGrid(Width / TILE_WIDTH, Width / TILE_WIDTH);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  float ms = bench::medianMs([&] { MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width); });

  auto ref = [&](size_t idx) {
    size_t row = idx / Width, col = idx % Width;
    double sum = 0;
    for (size_t k = 0; k < (size_t)Width; k++)
      sum += double(bench::uniformAt(21, row * Width + k)) * bench::uniformAt(22, k * Width + col);
    return sum;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(Pd, size, 2048, ref, 1e-3, 1e-3));
}
