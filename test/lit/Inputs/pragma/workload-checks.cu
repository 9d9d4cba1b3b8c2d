#define N 1024
#pragma kopt optimize launch(grid: (size_t)ceil(((float)N) / ((float)256)); block: 256) args(a = 2.0f) buffers(x[N] in, y[N]) skills(+tiling)
__global__ void missing(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
#pragma kopt optimize launch(grid: N / 256; block: 256, 2) args(n = N) buffers(x[n] in, y[n] out)
__global__ void written(int n, float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i] = x[i]; x[i] = 0; }
}
#pragma kopt optimize launch(grid: N / 0; block: 2048) args(n = N) buffers(y[n] out) budget(time = 2h)
__global__ void limits(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1;
}
