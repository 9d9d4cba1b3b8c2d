// A kernel the evaluator could not run alone: 'a' has no value, 'y' no buffer
// entry. kopt's front end rejects it; the checker passes its errors on.
#define N 1024

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N) buffers(x[n] in)
__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}
