// A level-2 style sequence: y = maxpool2x2(relu(conv2d(x) + bias)), x (64, 8, 128, 128),
// weight (64, 8, 3, 3), stride 1, no padding (conv output 126 x 126), 2 x 2 pooling with
// stride 2 (y 63 x 63). One thread per pooled output computes its four conv outputs.
// The check recomputes 2^16 sampled outputs in double.
#include "bench_util.h"

#define BATCH 64
#define CIN 8
#define COUT 64
#define H 128
#define W 128
#define KSIZE 3
#define PH ((H - KSIZE + 1) / 2)
#define PW ((W - KSIZE + 1) / 2)

#pragma kopt optimize launch(grid: (batch * cout * ph * pw + 255) / 256; block: 256) \
    args(batch = BATCH, cin = CIN, cout = COUT, h = H, w = W, k = KSIZE, ph = PH, pw = PW) \
    buffers(x[batch * cin * h * w] in, wt[cout * cin * k * k] in, bias[cout] in, \
            y[batch * cout * ph * pw] out) tol(rtol = 1e-3, atol = 1e-4)
__global__ void conv2d_relu_maxpool(int batch, int cin, int cout, int h, int w, int k, int ph,
                                    int pw, const float *x, const float *wt, const float *bias,
                                    float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * cout * ph * pw) {
    int px = i % pw;
    int py = (i / pw) % ph;
    int co = (i / (pw * ph)) % cout;
    int b = i / (pw * ph * cout);
    float best = 0.0f; // relu output is never below 0
    for (int dy = 0; dy < 2; dy++) {
      for (int dx = 0; dx < 2; dx++) {
        int oy = py * 2 + dy;
        int ox = px * 2 + dx;
        float z = bias[co];
        for (int ci = 0; ci < cin; ci++)
          for (int ky = 0; ky < k; ky++)
            for (int kx = 0; kx < k; kx++)
              z += x[((b * cin + ci) * h + oy + ky) * w + ox + kx] *
                   wt[((co * cin + ci) * k + ky) * k + kx];
        z = fmaxf(z, 0.0f);
        best = fmaxf(best, z);
      }
    }
    y[i] = best;
  }
}

int main() {
  size_t n = size_t(BATCH) * COUT * PH * PW;
  float *x = bench::uniformBuffer(size_t(BATCH) * CIN * H * W, 1);
  float *wt = bench::uniformBuffer(size_t(COUT) * CIN * KSIZE * KSIZE, 2);
  float *bias = bench::uniformBuffer(COUT, 3);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    conv2d_relu_maxpool<<<(BATCH * COUT * PH * PW + 255) / 256, 256>>>(
        BATCH, CIN, COUT, H, W, KSIZE, PH, PW, x, wt, bias, y);
  });
  auto ref = [](size_t i) {
    size_t px = i % PW, py = i / PW % PH, co = i / (size_t(PW) * PH) % COUT;
    size_t b = i / (size_t(PW) * PH * COUT);
    double best = 0;
    for (size_t oy = py * 2; oy < py * 2 + 2; oy++)
      for (size_t ox = px * 2; ox < px * 2 + 2; ox++) {
        double z = bench::uniformAt(3, co);
        for (size_t ci = 0; ci < CIN; ci++)
          for (size_t ky = 0; ky < KSIZE; ky++)
            for (size_t kx = 0; kx < KSIZE; kx++)
              z += double(bench::uniformAt(1, ((b * CIN + ci) * H + oy + ky) * W + ox + kx)) *
                   bench::uniformAt(2, ((co * CIN + ci) * KSIZE + ky) * KSIZE + kx);
        best = std::max(best, z);
      }
    return best;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 16, ref, 1e-3, 1e-4));
}
