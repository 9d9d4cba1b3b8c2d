// The smallest kopt example: one kernel marked for optimization.
// Build: kcc -O3 -arch=sm_90 saxpy.cu -o saxpy
#include <cstdio>
#include <cstdlib>
#include <vector>

#define N (1 << 24)

#pragma kopt optimize launch(grid: (N + 255) / 256; block: 256) args(n = N, a = 2.0f) \
    buffers(x[n] in, y[n] inout)
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  std::vector<float> x(N), y(N);
  for (int i = 0; i < N; ++i) {
    x[i] = float(i % 97) / 97.0f;
    y[i] = float(i % 89) / 89.0f;
  }
  float *dx, *dy;
  if (cudaMalloc(&dx, N * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dy, N * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "saxpy: cudaMalloc failed (no GPU?)\n");
    return 1;
  }
  cudaMemcpy(dx, x.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, dx, dy);
  std::vector<float> out(N);
  cudaMemcpy(out.data(), dy, N * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += std::abs(out[i] - (2.0f * x[i] + y[i])) > 1e-6f;
  std::printf("saxpy: %d of %d elements wrong\n", wrong, N);
  return wrong != 0;
}
