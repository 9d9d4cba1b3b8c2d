// The pragma written through the project's macro: only a preprocessor sees it.
#include "kopt_macros.h"

KOPT(kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20)
         buffers(x[n] inout))
__global__ void triple(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 3.0f;
}
