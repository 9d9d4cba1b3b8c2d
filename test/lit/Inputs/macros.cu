#include "helpers.cuh"

#ifndef WIDTH
#error "WIDTH must be defined"
#endif

struct Pair {
  float a, b;
};

__global__ void relu_rows(const float *in, float *out, int rows) {
  int r = blockIdx.y, c = threadIdx.x + blockIdx.x * blockDim.x;
  if (r < rows && c < WIDTH)
    out[r * WIDTH + c] = relu(in[r * WIDTH + c]);
}

__global__ void pairs(Pair *p, unsigned long long *count) {
  atomicAdd(count, 1ull);
  p[threadIdx.x].a = p[threadIdx.x].b;
}

__device__ void not_a_kernel() {}
