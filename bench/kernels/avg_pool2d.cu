// KernelBench level 1, 45_Average_Pooling_2D: 11 x 11 windows, stride 11, no padding.
// Shape: (16, 64, 1024, 1024) here, output 93 x 93 (KernelBench: 2048 x 2048 planes, 4 Gi
// elements, past a 32-bit index). The check recomputes 2^16 sampled outputs in double.
#include "bench_util.h"

#define PLANES (16 * 64)
#define H 1024
#define W 1024
#define KSIZE 11
#define OH ((H - KSIZE) / KSIZE + 1)
#define OW ((W - KSIZE) / KSIZE + 1)

#pragma kopt optimize launch(grid: (planes * oh * ow + 255) / 256; block: 256) \
    args(planes = PLANES, h = H, w = W, k = KSIZE, oh = OH, ow = OW) \
    buffers(x[planes * h * w] in, y[planes * oh * ow] out) tol(rtol = 1e-4, atol = 1e-6)
__global__ void avg_pool2d(int planes, int h, int w, int k, int oh, int ow, const float *x,
                           float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < planes * oh * ow) {
    int ox = i % ow;
    int oy = (i / ow) % oh;
    int p = i / (ow * oh);
    float sum = 0.0f;
    for (int dy = 0; dy < k; dy++)
      for (int dx = 0; dx < k; dx++)
        sum += x[((size_t)p * h + oy * k + dy) * w + ox * k + dx];
    y[i] = sum / (k * k);
  }
}

int main() {
  size_t n = size_t(PLANES) * OH * OW;
  float *x = bench::uniformBuffer(size_t(PLANES) * H * W, 1);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    avg_pool2d<<<(PLANES * OH * OW + 255) / 256, 256>>>(PLANES, H, W, KSIZE, OH, OW, x, y);
  });
  auto ref = [](size_t i) {
    size_t ox = i % OW, oy = i / OW % OH, p = i / (size_t(OW) * OH);
    double sum = 0;
    for (size_t dy = 0; dy < KSIZE; dy++)
      for (size_t dx = 0; dx < KSIZE; dx++)
        sum += bench::uniformAt(1, (p * H + oy * KSIZE + dy) * W + ox * KSIZE + dx);
    return sum / (KSIZE * KSIZE);
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 16, ref, 1e-4, 1e-6));
}
