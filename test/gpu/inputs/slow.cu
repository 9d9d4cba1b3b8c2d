// A deliberately slow kernel for the evaluation-cost test (slow-kernel.sh):
// each thread runs ITERS dependent multiply-adds, so one launch takes as long
// as ITERS says (the script calibrates it to about 1 s on the GPU at hand).
// Its variants (restrict, unroll, launch bounds, block size, coarsening) all
// compute the same values in the same order, so they verify.
#ifndef ITERS
#define ITERS 65536
#endif

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) \
    args(n = 1 << 21, iters = ITERS, a = 0.999f, b = 0.001f) buffers(x[n] in, y[n] out) noalias
__global__ void slow_chain(int n, int iters, float a, float b, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int k = 0; k < iters; ++k)
      v = v * a + b;
    y[i] = v;
  }
}
