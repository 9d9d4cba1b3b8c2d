// Code nvcc takes and kopt's clang front end does not (clang does not define
// __NVCC__): kcc warns and compiles it without kopt's variants.
#ifndef __NVCC__
#error "this file needs nvcc"
#endif
#pragma kopt optimize launch(grid: 1; block: 32) args(n = 32)
__global__ void kernel(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = 0;
}
