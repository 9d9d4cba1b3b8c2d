#include <cstdio>

#define BLOCK 256

namespace blas {
__device__ float scale(float a, float x) { return a * x; }

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scale(a, x[i]) + y[i];
}
} // namespace blas

template <typename T> __global__ void fill(T *p, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = value;
}

int main() {
  const int n = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  fill<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, 1.0f, n);
  fill<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(y, 2.0f, n);
  blas::saxpy<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, 3.0f, x, y);
  float first = 0;
  cudaMemcpy(&first, y, sizeof first, cudaMemcpyDeviceToHost);
  std::printf("y[0] = %g\n", first);
  return 0;
}
