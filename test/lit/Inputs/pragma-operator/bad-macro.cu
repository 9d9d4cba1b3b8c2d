#include "kopt_macros.h"

KOPT(kopt optimize launch(grid: 1; blok: 32) args(n = 32) buffers(x[n] inout))
__global__ void wrong(float *x, int n) {
  if (threadIdx.x < n)
    x[threadIdx.x] = 0.0f;
}
