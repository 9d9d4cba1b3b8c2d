// KernelBench level 1, 48_Mean_reduction_over_a_dimension:
// mean over dimension 1 of a (128, 4096, 4095) tensor; one thread per
// output walks its 4096 inputs. The check recomputes 4096 sampled outputs in double.
#include "bench_util.h"

#define BATCH 128
#define DIM 4096
#define INNER 4095

#pragma kopt optimize launch(grid: (batch * inner + 255) / 256; block: 256) \
    args(batch = BATCH, dim = DIM, inner = INNER) \
    buffers(x[batch * dim * inner] in, out[batch * inner] out) \
    tol(rtol = 1e-3, atol = 1e-6)
__global__ void mean_dim(int batch, int dim, int inner, const float *x, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < batch * inner) {
    int b = t / inner;
    int j = t % inner;
    float sum = 0.0f;
    for (int k = 0; k < dim; k++)
      sum += x[((size_t)b * dim + k) * inner + j];
    out[t] = sum / dim;
  }
}

int main() {
  float *x = bench::uniformBuffer(size_t(BATCH) * DIM * INNER, 1);
  float *out = bench::deviceAlloc<float>(size_t(BATCH) * INNER);
  float ms = bench::medianMs(
      [&] { mean_dim<<<(BATCH * INNER + 255) / 256, 256>>>(BATCH, DIM, INNER, x, out); });
  auto ref = [](size_t t) {
    size_t b = t / INNER, j = t % INNER;
    double sum = 0;
    for (size_t k = 0; k < DIM; k++)
      sum += bench::uniformAt(1, (b * DIM + k) * INNER + j);
    return sum / DIM;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(out, size_t(BATCH) * INNER, 4096, ref, 1e-3, 1e-6));
}
