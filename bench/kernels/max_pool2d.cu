// KernelBench level 1, 42_Max_Pooling_2D: 4 x 4 windows, stride 1, padding 1, dilation 1
// over a (32, 64, 512, 512) tensor (output 511 x 511); padding never wins the max.
// The check recomputes 2^20 sampled outputs exactly.
#include "bench_util.h"

#define PLANES (32 * 64)
#define H 512
#define W 512
#define KSIZE 4
#define PAD 1
#define OH (H + 2 * PAD - KSIZE + 1)
#define OW (W + 2 * PAD - KSIZE + 1)

#pragma kopt optimize launch(grid: (planes * oh * ow + 255) / 256; block: 256) \
    args(planes = PLANES, h = H, w = W, k = KSIZE, pad = PAD, oh = OH, ow = OW) \
    buffers(x[planes * h * w] in, y[planes * oh * ow] out)
__global__ void max_pool2d(int planes, int h, int w, int k, int pad, int oh, int ow,
                           const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < planes * oh * ow) {
    int ox = i % ow;
    int oy = (i / ow) % oh;
    int p = i / (ow * oh);
    float mx = -INFINITY;
    for (int dy = 0; dy < k; dy++) {
      for (int dx = 0; dx < k; dx++) {
        int iy = oy - pad + dy;
        int ix = ox - pad + dx;
        if (iy >= 0 && iy < h && ix >= 0 && ix < w)
          mx = fmaxf(mx, x[((size_t)p * h + iy) * w + ix]);
      }
    }
    y[i] = mx;
  }
}

int main() {
  size_t n = size_t(PLANES) * OH * OW;
  float *x = bench::uniformBuffer(size_t(PLANES) * H * W, 1);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    max_pool2d<<<(PLANES * OH * OW + 255) / 256, 256>>>(PLANES, H, W, KSIZE, PAD, OH, OW, x, y);
  });
  auto ref = [](size_t i) {
    long ox = i % OW, oy = i / OW % OH, p = i / (size_t(OW) * OH);
    double mx = -1e300;
    for (long iy = oy - PAD; iy < oy - PAD + KSIZE; iy++)
      for (long ix = ox - PAD; ix < ox - PAD + KSIZE; ix++)
        if (iy >= 0 && iy < H && ix >= 0 && ix < W)
          mx = std::max(mx, double(bench::uniformAt(1, (p * H + iy) * W + ix)));
    return mx;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 20, ref, 0.0, 0.0));
}
