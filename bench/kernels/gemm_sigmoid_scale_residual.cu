// KernelBench level 2, 70_Gemm_Sigmoid_Scaling_ResidualAdd: z = x W^T + bias (nn.Linear,
// W stored (out, in)), y = sigmoid(z) * scale + z, scale 2. Shape: batch 256 here
// (KernelBench: 1024), in 8192, out 8192, as in gemm_bias_relu. The check recomputes 2048
// sampled outputs in double.
#include "bench_util.h"

#define BATCH 256
#define IN 8192
#define OUT 8192

#pragma kopt optimize launch(grid: (out_f + 15) / 16, (batch + 15) / 16; block: 16, 16) \
    args(batch = BATCH, in_f = IN, out_f = OUT, scale = 2.0f) \
    buffers(x[batch * in_f] in, w[out_f * in_f] in, bias[out_f] in, y[batch * out_f] out) \
    tol(rtol = 1e-3, atol = 4e-3)
__global__ void gemm_sigmoid_scale_residual(int batch, int in_f, int out_f, float scale,
                                            const float *x, const float *w, const float *bias,
                                            float *y) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < batch && col < out_f) {
    float z = bias[col];
    for (int k = 0; k < in_f; k++)
      z += x[row * in_f + k] * w[col * in_f + k];
    float s = 1.0f / (1.0f + expf(-z));
    y[row * out_f + col] = s * scale + z;
  }
}

int main() {
  float *x = bench::uniformBuffer(size_t(BATCH) * IN, 1);
  float *w = bench::uniformBuffer(size_t(OUT) * IN, 2);
  float *bias = bench::uniformBuffer(OUT, 3);
  float *y = bench::deviceAlloc<float>(size_t(BATCH) * OUT);
  dim3 grid((OUT + 15) / 16, (BATCH + 15) / 16), block(16, 16);
  float ms = bench::medianMs(
      [&] { gemm_sigmoid_scale_residual<<<grid, block>>>(BATCH, IN, OUT, 2.0f, x, w, bias, y); });
  auto ref = [](size_t i) {
    size_t row = i / OUT, col = i % OUT;
    double z = bench::uniformAt(3, col);
    for (size_t k = 0; k < IN; k++)
      z += double(bench::uniformAt(1, row * IN + k)) * bench::uniformAt(2, col * IN + k);
    return 2.0 / (1.0 + std::exp(-z)) + z;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(y, size_t(BATCH) * OUT, 2048, ref, 1e-3, 4e-3));
}
