// KernelBench level 1, 33_BatchNorm, in its inference form: per channel c,
// y = (x - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c] on a (64, 64, 512, 512)
// tensor. fabsf(var) keeps the kernel defined for any input (a variance is never negative).
#include "bench_util.h"

#define BATCH 64
#define CHANNELS 64
#define PIXELS (512 * 512)

#pragma kopt optimize launch(grid: (batch * channels * pixels + 255) / 256; block: 256) \
    args(batch = BATCH, channels = CHANNELS, pixels = PIXELS, eps = 1e-5f) \
    buffers(x[batch * channels * pixels] in, mean[channels] in, var[channels] in, \
            gamma[channels] in, beta[channels] in, y[batch * channels * pixels] out)
__global__ void batch_norm(int batch, int channels, int pixels, float eps, const float *x,
                           const float *mean, const float *var, const float *gamma,
                           const float *beta, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * channels * pixels) {
    int c = (i / pixels) % channels;
    y[i] = (x[i] - mean[c]) / sqrtf(fabsf(var[c]) + eps) * gamma[c] + beta[c];
  }
}

int main() {
  size_t n = size_t(BATCH) * CHANNELS * PIXELS;
  float *x = bench::uniformBuffer(n, 1);
  float *mean = bench::uniformBuffer(CHANNELS, 2);
  float *var = bench::uniformBuffer(CHANNELS, 3, 0.5f, 1.5f);
  float *gamma = bench::uniformBuffer(CHANNELS, 4);
  float *beta = bench::uniformBuffer(CHANNELS, 5);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    batch_norm<<<(BATCH * CHANNELS * PIXELS + 255) / 256, 256>>>(BATCH, CHANNELS, PIXELS, 1e-5f,
                                                                 x, mean, var, gamma, beta, y);
  });
  auto ref = [](size_t i) {
    size_t c = i / PIXELS % CHANNELS;
    return (bench::uniformAt(1, i) - bench::uniformAt(2, c)) /
               std::sqrt(bench::uniformAt(3, c, 0.5f, 1.5f) + 1e-5) * bench::uniformAt(4, c) +
           bench::uniformAt(5, c);
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 20, ref, 1e-4, 1e-5));
}
