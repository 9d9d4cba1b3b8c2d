// KernelBench level 1, 95_CrossEntropyLoss: mean over rows of logsumexp(row) - row[target]
// for 32768 rows of 4096 logits. Targets are clamped to [0, classes) so that any input is
// safe. One thread per row adds its share to loss[0] with atomicAdd (the kernel accumulates
// into loss; the host clears it). The check recomputes every row in double.
#include "bench_util.h"

#define ROWS 32768
#define CLASSES 4096

#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) \
    args(rows = ROWS, classes = CLASSES) \
    buffers(logits[rows * classes] in, target[rows] in, loss[1] inout) \
    tol(rtol = 1e-3, atol = 1e-5)
__global__ void cross_entropy(int rows, int classes, const float *logits, const int *target,
                              float *loss) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *x = logits + (size_t)r * classes;
    float mx = x[0];
    for (int j = 1; j < classes; j++)
      mx = fmaxf(mx, x[j]);
    float sum = 0.0f;
    for (int j = 0; j < classes; j++)
      sum += expf(x[j] - mx);
    int t = min(max(target[r], 0), classes - 1);
    atomicAdd(loss, (logf(sum) + mx - x[t]) / rows);
  }
}

int main() {
  float *logits = bench::uniformBuffer(size_t(ROWS) * CLASSES, 1);
  int *target = bench::intBuffer(ROWS, 2, 0, CLASSES);
  float *loss = bench::zeroBuffer<float>(1);
  float ms = bench::medianMs([&] {
    BENCH_CUDA(cudaMemsetAsync(loss, 0, sizeof(float)));
    cross_entropy<<<(ROWS + 255) / 256, 256>>>(ROWS, CLASSES, logits, target, loss);
  });
  auto ref = [](size_t) {
    double total = 0;
    for (size_t r = 0; r < ROWS; r++) {
      double mx = -1e300, sum = 0;
      for (size_t j = 0; j < CLASSES; j++)
        mx = std::max(mx, double(bench::uniformAt(1, r * CLASSES + j)));
      for (size_t j = 0; j < CLASSES; j++)
        sum += std::exp(bench::uniformAt(1, r * CLASSES + j) - mx);
      size_t t = bench::intAt(2, r, 0, CLASSES);
      total += std::log(sum) + mx - bench::uniformAt(1, r * CLASSES + t);
    }
    return total / ROWS;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(loss, 1, 1, ref, 1e-3, 1e-5));
}
