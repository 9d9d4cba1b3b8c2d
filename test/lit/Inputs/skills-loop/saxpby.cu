// The skills engine's loop through `kopt optimize` with a scripted evaluator
// (skills-loop.test): a kernel like stream.cu, in another build.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, a = 2.0f) \
    buffers(x[n] in, z[n] in, y[n] out) noalias budget(evals = 3)
__global__ void saxpby(int n, float a, const float *x, const float *z, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] - 3.0f * z[i];
}
