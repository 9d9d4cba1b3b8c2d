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
#pragma kopt optimize launch(grid: 4; block: 256) args(a = 1.0f) buffers(y[1024] out)
__global__ void two_missing(int n, int m, float a, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < m) y[i] = a;
}
#pragma kopt optimize launch(grid: 4; block: 256) buffers(a[1024] in, b[1024] in, c[1024] in, d[1024] in, e[1024] in)
__global__ void written_forms(float *a, float *b, float *c, float *d, float *e) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  *(a + i) = 0;
  b[i] += 1;
  c[i]++;
  atomicAdd(&d[i], 1.0f);
  float *p = e;
  p[i] = 2;
}
#pragma kopt optimize launch(grid: N / 256, 2; block: 256) args(n = N) buffers(y[n] out)
__global__ void grid_race(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1;
}
#pragma kopt optimize launch(grid: N / 256, 2; block: 256, 2) args(n = N) buffers(x[n] in, y[4 * n] out)
__global__ void two_dimensional(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n) y[j * n + i] = x[i];
}
