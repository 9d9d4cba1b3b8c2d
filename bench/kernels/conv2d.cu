// KernelBench level 1, 50_conv_standard_2D__square_input__square_kernel: direct 2D
// convolution with bias, x (256, 3, 224, 224), weight (96, 3, 11, 11), stride 4, padding 2,
// y (256, 96, 55, 55). One thread per output element. The check recomputes 2^16 samples.
#include "bench_util.h"

#define BATCH 256
#define CIN 3
#define COUT 96
#define H 224
#define W 224
#define KSIZE 11
#define STRIDE 4
#define PAD 2
#define OH ((H + 2 * PAD - KSIZE) / STRIDE + 1)
#define OW ((W + 2 * PAD - KSIZE) / STRIDE + 1)

#pragma kopt optimize launch(grid: (batch * cout * oh * ow + 255) / 256; block: 256) \
    args(batch = BATCH, cin = CIN, cout = COUT, h = H, w = W, k = KSIZE, stride = STRIDE, \
         pad = PAD, oh = OH, ow = OW) \
    buffers(x[batch * cin * h * w] in, wt[cout * cin * k * k] in, bias[cout] in, \
            y[batch * cout * oh * ow] out) tol(rtol = 1e-3, atol = 1e-4)
__global__ void conv2d(int batch, int cin, int cout, int h, int w, int k, int stride, int pad,
                       int oh, int ow, const float *x, const float *wt, const float *bias,
                       float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * cout * oh * ow) {
    int ox = i % ow;
    int oy = (i / ow) % oh;
    int co = (i / (ow * oh)) % cout;
    int b = i / (ow * oh * cout);
    float sum = bias[co];
    for (int ci = 0; ci < cin; ci++)
      for (int ky = 0; ky < k; ky++)
        for (int kx = 0; kx < k; kx++) {
          int iy = oy * stride - pad + ky;
          int ix = ox * stride - pad + kx;
          if (iy >= 0 && iy < h && ix >= 0 && ix < w)
            sum += x[((b * cin + ci) * h + iy) * w + ix] * wt[((co * cin + ci) * k + ky) * k + kx];
        }
    y[i] = sum;
  }
}

int main() {
  size_t n = size_t(BATCH) * COUT * OH * OW;
  float *x = bench::uniformBuffer(size_t(BATCH) * CIN * H * W, 1);
  float *wt = bench::uniformBuffer(size_t(COUT) * CIN * KSIZE * KSIZE, 2);
  float *bias = bench::uniformBuffer(COUT, 3);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    conv2d<<<(BATCH * COUT * OH * OW + 255) / 256, 256>>>(BATCH, CIN, COUT, H, W, KSIZE, STRIDE,
                                                         PAD, OH, OW, x, wt, bias, y);
  });
  auto ref = [](size_t i) {
    long ox = i % OW, oy = i / OW % OH, co = i / (size_t(OW) * OH) % COUT;
    long b = i / (size_t(OW) * OH * COUT);
    double sum = bench::uniformAt(3, co);
    for (long ci = 0; ci < CIN; ci++)
      for (long ky = 0; ky < KSIZE; ky++)
        for (long kx = 0; kx < KSIZE; kx++) {
          long iy = oy * STRIDE - PAD + ky, ix = ox * STRIDE - PAD + kx;
          if (iy >= 0 && iy < H && ix >= 0 && ix < W)
            sum += double(bench::uniformAt(1, ((b * CIN + ci) * H + iy) * W + ix)) *
                   bench::uniformAt(2, ((co * CIN + ci) * KSIZE + ky) * KSIZE + kx);
        }
    return sum;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 16, ref, 1e-3, 1e-4));
}
