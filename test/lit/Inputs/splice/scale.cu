#include <cstdio>

#define BLOCK 256

namespace blas {
#pragma kopt optimize launch(grid: (1 << 20) / BLOCK; block: BLOCK) args(n = 1 << 20, a = 2.0f) \
    buffers(x[n] in, y[n] out)
__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}
} // namespace blas

void run(int n, float *x, float *y, cudaStream_t stream) {
  blas::scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, 2.0f, x, y);
  dim3 grid((n + BLOCK - 1) / BLOCK), block(BLOCK);
  blas::scale<<<grid, block, 0,
                stream>>>(n / 2, 3.0f, x,
                          y);
  int unused_after_launch; // Line 21: a warning here must point at line 21.
}
