// A time-stepped program with its own check (kopt verify's GPU test): ten steps
// of decay then offset over a million floats, compared with the same steps on
// the CPU; "PASS" and exit 0 where every element is within 1e-5.
#include <cmath>
#include <cstdio>
#include <vector>

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20) \
    buffers(x[n] inout)
__global__ void decay(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 0.5f;
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20) \
    buffers(x[n] inout)
__global__ void offset(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

int main() {
  const int n = 1 << 20;
  std::vector<float> host(n), want(n);
  for (int i = 0; i < n; ++i)
    host[i] = want[i] = float(i % 1000) / 100.0f;
  float *x = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "steps: cudaMalloc failed\n");
    return 2;
  }
  cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  for (int step = 0; step < 10; ++step) {
    decay<<<(n + 255) / 256, 256>>>(n, x);
    offset<<<(n + 255) / 256, 256>>>(n, x);
    for (float &w : want)
      w = w * 0.5f + 1.0f;
  }
  cudaMemcpy(host.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    std::fprintf(stderr, "steps: a launch failed\n");
    return 2;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += std::fabs(host[i] - want[i]) > 1e-5f;
  std::printf("steps: %s (%d wrong elements)\n", wrong ? "FAIL" : "PASS", wrong);
  return wrong ? 1 : 0;
}
