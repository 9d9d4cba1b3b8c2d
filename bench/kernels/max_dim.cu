// KernelBench level 1, 49_Max_reduction_over_a_dimension:
// max over dimension 1 of a (128, 4096, 4095) tensor; one thread per
// output walks its 4096 inputs. The check recomputes 4096 sampled outputs exactly.
#include "bench_util.h"

#define BATCH 128
#define DIM 4096
#define INNER 4095

#pragma kopt optimize launch(grid: (batch * inner + 255) / 256; block: 256) \
    args(batch = BATCH, dim = DIM, inner = INNER) \
    buffers(x[batch * dim * inner] in, out[batch * inner] out)
__global__ void max_dim(int batch, int dim, int inner, const float *x, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < batch * inner) {
    int b = t / inner;
    int j = t % inner;
    float mx = x[(size_t)b * dim * inner + j];
    for (int k = 1; k < dim; k++)
      mx = fmaxf(mx, x[((size_t)b * dim + k) * inner + j]);
    out[t] = mx;
  }
}

int main() {
  float *x = bench::uniformBuffer(size_t(BATCH) * DIM * INNER, 1);
  float *out = bench::deviceAlloc<float>(size_t(BATCH) * INNER);
  float ms = bench::medianMs(
      [&] { max_dim<<<(BATCH * INNER + 255) / 256, 256>>>(BATCH, DIM, INNER, x, out); });
  auto ref = [](size_t t) {
    size_t b = t / INNER, j = t % INNER;
    double mx = -1e300;
    for (size_t k = 0; k < DIM; k++)
      mx = std::max(mx, double(bench::uniformAt(1, (b * DIM + k) * INNER + j)));
    return mx;
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(out, size_t(BATCH) * INNER, 4096, ref, 0.0, 0.0));
}
