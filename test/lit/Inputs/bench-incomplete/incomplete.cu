// A kernel the front end accepts but whose buffer 'x' has no direction, and a
// second kernel with no pragma at all.
#define N 1024

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, a = 2.0f) buffers(x[n], y[n] out)
__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}

__global__ void bare(float *y) { y[0] = 1.0f; }
