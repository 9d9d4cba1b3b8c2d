// A user header with an annotated kernel.
#pragma once

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, a = 2.0f) \
    buffers(x[n] inout)
__global__ void scale(int n, float a, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

#ifdef WARN_HERE
#warning "a warning from scale.cuh"
#endif
