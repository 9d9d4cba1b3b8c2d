// A time-stepped kernel for the verification chain (issue 31): each launch
// advances every element one step of the logistic map x <- r x (1 - x), with
// r = 1 / w in (3.70, 3.90), where the map is chaotic: a difference between
// two runs grows by |r (1 - 2x)|, about e^0.4 a step on average. -DONE_LAUNCH
// verifies one launch (repeat(1)), -DTWO_LAUNCHES two; without either, the
// inout buffer makes the default chain of 20 launches. logistic-app.cu is an
// application that steps it 30 times.
#ifdef ONE_LAUNCH
#define CHAIN repeat(1)
#elif defined(TWO_LAUNCHES)
#define CHAIN repeat(2)
#else
#define CHAIN
#endif
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20) buffers(x[n] inout range(0.05, 0.95), w[n] in range(0.2564, 0.27)) tol(rtol = 1e-5, atol = 1e-6) CHAIN
__global__ void logistic_step(int n, float *x, const float *w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * (1.0f - x[i]) / w[i];
}
