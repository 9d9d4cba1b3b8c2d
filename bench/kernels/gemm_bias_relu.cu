// KernelBench level 2, 76_Gemm_Add_ReLU: y = relu(x W^T + bias) with nn.Linear's layout,
// W stored (out, in). Shape: batch 256 here (KernelBench: 1024), in 8192, out 8192: each
// thread walks its own row of W, and a quarter of the batch keeps the naive kernel near
// the other matmuls. The check recomputes 2048 sampled outputs in double.
#include "bench_util.h"

#define BATCH 256
#define IN 8192
#define OUT 8192

#pragma kopt optimize launch(grid: (out_f + 15) / 16, (batch + 15) / 16; block: 16, 16) \
    args(batch = BATCH, in_f = IN, out_f = OUT) \
    buffers(x[batch * in_f] in, w[out_f * in_f] in, bias[out_f] in, y[batch * out_f] out) \
    tol(rtol = 1e-3, atol = 4e-3)
__global__ void gemm_bias_relu(int batch, int in_f, int out_f, const float *x, const float *w,
                               const float *bias, float *y) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < batch && col < out_f) {
    float sum = 0.0f;
    for (int k = 0; k < in_f; k++)
      sum += x[row * in_f + k] * w[col * in_f + k];
    sum += bias[col];
    y[row * out_f + col] = sum > 0.0f ? sum : 0.0f;
  }
}

int main() {
  float *x = bench::uniformBuffer(size_t(BATCH) * IN, 1);
  float *w = bench::uniformBuffer(size_t(OUT) * IN, 2);
  float *bias = bench::uniformBuffer(OUT, 3);
  float *y = bench::deviceAlloc<float>(size_t(BATCH) * OUT);
  dim3 grid((OUT + 15) / 16, (BATCH + 15) / 16), block(16, 16);
  float ms =
      bench::medianMs([&] { gemm_bias_relu<<<grid, block>>>(BATCH, IN, OUT, x, w, bias, y); });
  auto ref = [](size_t i) {
    size_t row = i / OUT, col = i % OUT;
    double sum = bench::uniformAt(3, col);
    for (size_t k = 0; k < IN; k++)
      sum += double(bench::uniformAt(1, row * IN + k)) * bench::uniformAt(2, col * IN + k);
    return std::max(sum, 0.0);
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(y, size_t(BATCH) * OUT, 2048, ref, 1e-3, 4e-3));
}
