// KernelBench level 1, 36_RMSNorm_: y = x / sqrt(mean over channels of x^2 + eps) for a
// (112, 64, 512, 512) tensor, normalized over dimension 1 (64 channels); one thread per
// (batch, pixel) walks its 64 channels. The check recomputes 2^16 sampled outputs.
#include "bench_util.h"

#define BATCH 112
#define CHANNELS 64
#define PIXELS (512 * 512)

#pragma kopt optimize launch(grid: (batch * pixels + 255) / 256; block: 256) \
    args(batch = BATCH, channels = CHANNELS, pixels = PIXELS, eps = 1e-5f) \
    buffers(x[batch * channels * pixels] in, y[batch * channels * pixels] out) \
    tol(rtol = 1e-4, atol = 1e-6)
__global__ void rms_norm(int batch, int channels, int pixels, float eps, const float *x,
                         float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < batch * pixels) {
    int b = t / pixels;
    int p = t % pixels;
    size_t base = (size_t)b * channels * pixels + p;
    float sq = 0.0f;
    for (int c = 0; c < channels; c++)
      sq += x[base + (size_t)c * pixels] * x[base + (size_t)c * pixels];
    float rms = sqrtf(sq / channels + eps);
    for (int c = 0; c < channels; c++)
      y[base + (size_t)c * pixels] = x[base + (size_t)c * pixels] / rms;
  }
}

int main() {
  size_t n = size_t(BATCH) * CHANNELS * PIXELS;
  float *x = bench::uniformBuffer(n, 1);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    rms_norm<<<(BATCH * PIXELS + 255) / 256, 256>>>(BATCH, CHANNELS, PIXELS, 1e-5f, x, y);
  });
  auto ref = [](size_t i) {
    size_t b = i / (size_t(CHANNELS) * PIXELS), p = i % PIXELS;
    double sq = 0;
    for (size_t c = 0; c < CHANNELS; c++)
      sq += std::pow(double(bench::uniformAt(1, (b * CHANNELS + c) * PIXELS + p)), 2);
    return bench::uniformAt(1, i) / std::sqrt(sq / CHANNELS + 1e-5);
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 16, ref, 1e-4, 1e-6));
}
