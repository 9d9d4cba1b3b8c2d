// KernelBench level 1, 82_conv_depthwise_2D_square_input_square_kernel: each of 64
// channels convolved with its own 3 x 3 filter, no bias, stride 1, no padding,
// x (16, 64, 512, 512), y (16, 64, 510, 510). The check recomputes 2^18 samples.
#include "bench_util.h"

#define BATCH 16
#define CHANNELS 64
#define H 512
#define W 512
#define KSIZE 3
#define OH (H - KSIZE + 1)
#define OW (W - KSIZE + 1)

#pragma kopt optimize launch(grid: (batch * channels * oh * ow + 255) / 256; block: 256) \
    args(batch = BATCH, channels = CHANNELS, h = H, w = W, k = KSIZE, oh = OH, ow = OW) \
    buffers(x[batch * channels * h * w] in, wt[channels * k * k] in, \
            y[batch * channels * oh * ow] out) tol(rtol = 1e-4, atol = 1e-5)
__global__ void conv2d_depthwise(int batch, int channels, int h, int w, int k, int oh, int ow,
                                 const float *x, const float *wt, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * channels * oh * ow) {
    int ox = i % ow;
    int oy = (i / ow) % oh;
    int c = (i / (ow * oh)) % channels;
    int plane = i / (ow * oh);
    float sum = 0.0f;
    for (int ky = 0; ky < k; ky++)
      for (int kx = 0; kx < k; kx++)
        sum += x[((size_t)plane * h + oy + ky) * w + ox + kx] * wt[(c * k + ky) * k + kx];
    y[i] = sum;
  }
}

int main() {
  size_t n = size_t(BATCH) * CHANNELS * OH * OW;
  float *x = bench::uniformBuffer(size_t(BATCH) * CHANNELS * H * W, 1);
  float *wt = bench::uniformBuffer(size_t(CHANNELS) * KSIZE * KSIZE, 2);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    conv2d_depthwise<<<(BATCH * CHANNELS * OH * OW + 255) / 256, 256>>>(BATCH, CHANNELS, H, W,
                                                                       KSIZE, OH, OW, x, wt, y);
  });
  auto ref = [](size_t i) {
    size_t ox = i % OW, oy = i / OW % OH, plane = i / (size_t(OW) * OH), c = plane % CHANNELS;
    double sum = 0;
    for (size_t ky = 0; ky < KSIZE; ky++)
      for (size_t kx = 0; kx < KSIZE; kx++)
        sum += double(bench::uniformAt(1, (plane * H + oy + ky) * W + ox + kx)) *
               bench::uniformAt(2, (c * KSIZE + ky) * KSIZE + kx);
    return sum;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 18, ref, 1e-4, 1e-5));
}
