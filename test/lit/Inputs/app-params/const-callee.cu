// A buffer declared 'in' passed to a device function's pointer-to-const
// parameter is read there, never written: no "may write" warning. Passed to a
// non-const pointer parameter, it may be written: the warning stays.
__device__ float moments(const float *w, int m) {
  float s = 0;
  for (int k = 0; k < m; ++k) s += w[k];
  return s;
}
__device__ void clear(float *w) { w[0] = 0; }

#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = 4096, m = 8) buffers(x[n + m] in, y[n] out)
__global__ void stats(int n, int m, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = moments(x + i, m);
}

#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = 4096) buffers(x[n] in, y[n] out)
__global__ void cleared(int n, float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i] = x[i]; clear(x); }
}
