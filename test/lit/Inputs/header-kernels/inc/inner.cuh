// A kernel two includes deep, using a helper found beside this header.
#pragma once
#include "helper.h"

#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n] inout)
__global__ void shift(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = plus_one(x[i]);
}
