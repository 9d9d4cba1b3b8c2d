// The llm engine's loop tests: one evaluation, so the run ends after the
// first variant that reaches the evaluator.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, a = 2.0f) \
    buffers(x[n] in, y[n] out) budget(evals = 1)
__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}
