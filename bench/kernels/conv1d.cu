// KernelBench level 1, 67_conv_standard_1D: direct 1D convolution, no bias, stride 1, no
// padding: x (32, 64, 131072), weight (128, 64, 3), y (32, 128, 131070). One thread per
// output element. The check recomputes 2^16 sampled outputs in double.
#include "bench_util.h"

#define BATCH 32
#define CIN 64
#define COUT 128
#define LEN 131072
#define KSIZE 3
#define OLEN (LEN - KSIZE + 1)

#pragma kopt optimize launch(grid: (batch * cout * olen + 255) / 256; block: 256) \
    args(batch = BATCH, cin = CIN, cout = COUT, len = LEN, k = KSIZE, olen = OLEN) \
    buffers(x[batch * cin * len] in, wt[cout * cin * k] in, y[batch * cout * olen] out) \
    tol(rtol = 1e-3, atol = 1e-4)
__global__ void conv1d(int batch, int cin, int cout, int len, int k, int olen, const float *x,
                       const float *wt, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * cout * olen) {
    int o = i % olen;
    int co = (i / olen) % cout;
    int b = i / (olen * cout);
    float sum = 0.0f;
    for (int ci = 0; ci < cin; ci++)
      for (int t = 0; t < k; t++)
        sum += x[((size_t)b * cin + ci) * len + o + t] * wt[(co * cin + ci) * k + t];
    y[i] = sum;
  }
}

int main() {
  size_t n = size_t(BATCH) * COUT * OLEN;
  float *x = bench::uniformBuffer(size_t(BATCH) * CIN * LEN, 1);
  float *wt = bench::uniformBuffer(size_t(COUT) * CIN * KSIZE, 2);
  float *y = bench::deviceAlloc<float>(n);
  float ms = bench::medianMs([&] {
    conv1d<<<(BATCH * COUT * OLEN + 255) / 256, 256>>>(BATCH, CIN, COUT, LEN, KSIZE, OLEN, x, wt,
                                                       y);
  });
  auto ref = [](size_t i) {
    size_t o = i % OLEN, co = i / OLEN % COUT, b = i / (size_t(OLEN) * COUT);
    double sum = 0;
    for (size_t ci = 0; ci < CIN; ci++)
      for (size_t t = 0; t < KSIZE; t++)
        sum += double(bench::uniformAt(1, (b * CIN + ci) * LEN + o + t)) *
               bench::uniformAt(2, (co * CIN + ci) * KSIZE + t);
    return sum;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, n, 1 << 16, ref, 1e-3, 1e-4));
}
