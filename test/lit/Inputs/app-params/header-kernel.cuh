#pragma once

// Several lines, so that the header's line is not the main file's.

#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = 4096) buffers(y[n] inout)
__global__ void halve(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= 0.5f;
}
