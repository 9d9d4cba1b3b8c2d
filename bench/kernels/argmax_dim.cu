// KernelBench level 1, 51_Argmax_over_a_dimension: argmax (the first index of the
// maximum) over dimension 1 of a (128, 4096, 4095) tensor; one thread per
// output walks its 4096 inputs. The check recomputes 4096 sampled outputs exactly.
#include "bench_util.h"

#define BATCH 128
#define DIM 4096
#define INNER 4095

#pragma kopt optimize launch(grid: (batch * inner + 255) / 256; block: 256) \
    args(batch = BATCH, dim = DIM, inner = INNER) \
    buffers(x[batch * dim * inner] in, out[batch * inner] out)
__global__ void argmax_dim(int batch, int dim, int inner, const float *x, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < batch * inner) {
    int b = t / inner;
    int j = t % inner;
    float mx = x[(size_t)b * dim * inner + j];
    int arg = 0;
    for (int k = 1; k < dim; k++) {
      float v = x[((size_t)b * dim + k) * inner + j];
      if (v > mx) {
        mx = v;
        arg = k;
      }
    }
    out[t] = arg;
  }
}

int main() {
  float *x = bench::uniformBuffer(size_t(BATCH) * DIM * INNER, 1);
  int *out = bench::deviceAlloc<int>(size_t(BATCH) * INNER);
  float ms = bench::medianMs(
      [&] { argmax_dim<<<(BATCH * INNER + 255) / 256, 256>>>(BATCH, DIM, INNER, x, out); });
  auto ref = [](size_t t) {
    size_t b = t / INNER, j = t % INNER;
    float mx = bench::uniformAt(1, b * DIM * INNER + j);
    int arg = 0;
    for (size_t k = 1; k < DIM; k++)
      if (bench::uniformAt(1, (b * DIM + k) * INNER + j) > mx)
        mx = bench::uniformAt(1, (b * DIM + k) * INNER + j), arg = int(k);
    return double(arg);
  };
  return bench::report(__FILE__, ms,
                       bench::checkOutput(out, size_t(BATCH) * INNER, 4096, ref, 0.0, 0.0));
}
