// logistic.cu with the approximate division __fdividef (at most 2 ulps off,
// where IEEE division is correctly rounded): within a float tolerance after one
// launch, far outside it after 20, as the chaotic map amplifies the error.
#ifdef ONE_LAUNCH
#define CHAIN repeat(1)
#else
#define CHAIN
#endif
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20) buffers(x[n] inout range(0.05, 0.95), w[n] in range(0.2564, 0.27)) tol(rtol = 1e-5, atol = 1e-6) CHAIN
__global__ void logistic_step(int n, float *x, const float *w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = __fdividef(x[i] * (1.0f - x[i]), w[i]);
}
