// A kernel calling device helpers from a header and from this file.
#include "helpers.cuh"

__device__ float square(float x) { return x * x; }

__device__ float unused_helper(float x) { return x + 1.0f; }

__device__ float square_twice(float x) { return twice(square(x)); }

#pragma kopt optimize
__global__ void apply(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = square_twice(in[i]);
}

__global__ void other(float *out) { out[0] = unused_helper(1.0f); }
