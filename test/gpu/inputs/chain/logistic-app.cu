// An application of logistic.cu's kernel (chain-verify.sh): 30 steps of the
// map in place on x, from inputs inside the pragma's ranges. `kopt record`
// sees one distinct launch made 30 times, which kopt verifies as a chain of
// 30 from its recorded inputs.
#include "logistic.cu"

#include <cstdio>
#include <vector>

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n), w(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.05f + 0.9f * float((i * 7919) % n) / float(n);
    w[i] = 0.2564f + 0.0136f * float((i * 104729) % n) / float(n);
  }
  float *dx = nullptr, *dw = nullptr;
  if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dw, n * sizeof(float)) != cudaSuccess)
    return 2;
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dw, w.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  for (int step = 0; step < 30; ++step)
    logistic_step<<<(n + 255) / 256, 256>>>(n, dx, dw);
  cudaMemcpy(x.data(), dx, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 3;
  std::printf("logistic-app: x[0] = %.6f\n", x[0]);
  return 0;
}
