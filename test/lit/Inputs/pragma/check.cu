#define N 4096
#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = N | 2 * N | 4 * N) buffers(x[n] in, y[n] out)
__global__ void copy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
#pragma kopt optimize launch(grid: n / 64; block: 64, 2) args(n = 256) buffers(y[n] out)
__global__ void twice(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1;
}
#pragma kopt optimize budget(time = 2h)
__global__ void recorded(int n, float *y) {}
__global__ void plain(float *y) {}
