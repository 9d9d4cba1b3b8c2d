// An annotated kernel that includes a header from its own directory.
#include "scale_helpers.cuh"

#pragma kopt optimize launch(grid: 4096; block: 256) \
    args(n = 1 << 20, s = 2.0f) buffers(p[n] inout)
__global__ void scale(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = times(p[i], s);
}
