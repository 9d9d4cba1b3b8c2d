// Calls a __device__ function defined in another file: needs -rdc and a device link.
#include <cstdio>

extern __device__ float offset(float x);

#pragma kopt optimize launch(grid: 1; block: 32) args(n = 32) buffers(p[n] inout)
__global__ void shift(float *p, int n) {
  int i = threadIdx.x;
  if (i < n)
    p[i] = offset(p[i]);
}

int main() {
  float *p = nullptr;
  if (cudaMalloc(&p, 32 * sizeof(float)) != cudaSuccess) {
    std::printf("no GPU\n");
    return 0;
  }
  shift<<<1, 32>>>(p, 32);
  std::printf("launched: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
