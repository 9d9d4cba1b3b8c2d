// KernelBench level 2, 57_Conv2d_ReLU_HardSwish: z = relu(conv2d(x) + bias), then
// y = z * clamp((z + 3) / 6, 0, 1); x (128, 8, 128, 128), weight (64, 8, 3, 3), stride 1,
// no padding, y (128, 64, 126, 126). The check recomputes 2^16 sampled outputs in double.
#include "bench_util.h"

#define BATCH 128
#define CIN 8
#define COUT 64
#define H 128
#define W 128
#define KSIZE 3
#define OH (H - KSIZE + 1)
#define OW (W - KSIZE + 1)

#pragma kopt optimize launch(grid: (batch * cout * oh * ow + 255) / 256; block: 256) \
    args(batch = BATCH, cin = CIN, cout = COUT, h = H, w = W, k = KSIZE, oh = OH, ow = OW) \
    buffers(x[batch * cin * h * w] in, wt[cout * cin * k * k] in, bias[cout] in, \
            y[batch * cout * oh * ow] out) tol(rtol = 1e-3, atol = 1e-4)
__global__ void conv2d_relu_hardswish(int batch, int cin, int cout, int h, int w, int k, int oh,
                                      int ow, const float *x, const float *wt, const float *bias,
                                      float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * cout * oh * ow) {
    int ox = i % ow;
    int oy = (i / ow) % oh;
    int co = (i / (ow * oh)) % cout;
    int b = i / (ow * oh * cout);
    float z = bias[co];
    for (int ci = 0; ci < cin; ci++)
      for (int ky = 0; ky < k; ky++)
        for (int kx = 0; kx < k; kx++)
          z += x[((b * cin + ci) * h + oy + ky) * w + ox + kx] *
               wt[((co * cin + ci) * k + ky) * k + kx];
    z = fmaxf(z, 0.0f);
    y[i] = z * fminf(fmaxf((z + 3.0f) / 6.0f, 0.0f), 1.0f);
  }
}

int main() {
  size_t n = size_t(BATCH) * COUT * OH * OW;
  float *x = bench::uniformBuffer(size_t(BATCH) * CIN * H * W, 1);
  float *wt = bench::uniformBuffer(size_t(COUT) * CIN * KSIZE * KSIZE, 2);
  float *bias = bench::uniformBuffer(COUT, 3);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    conv2d_relu_hardswish<<<(BATCH * COUT * OH * OW + 255) / 256, 256>>>(
        BATCH, CIN, COUT, H, W, KSIZE, OH, OW, x, wt, bias, y);
  });
  auto ref = [](size_t i) {
    size_t ox = i % OW, oy = i / OW % OH, co = i / (size_t(OW) * OH) % COUT;
    size_t b = i / (size_t(OW) * OH * COUT);
    double z = bench::uniformAt(3, co);
    for (size_t ci = 0; ci < CIN; ci++)
      for (size_t ky = 0; ky < KSIZE; ky++)
        for (size_t kx = 0; kx < KSIZE; kx++)
          z += double(bench::uniformAt(1, ((b * CIN + ci) * H + oy + ky) * W + ox + kx)) *
               bench::uniformAt(2, ((co * CIN + ci) * KSIZE + ky) * KSIZE + kx);
    z = std::max(z, 0.0);
    return z * std::min(std::max((z + 3) / 6, 0.0), 1.0);
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 16, ref, 1e-3, 1e-4));
}
