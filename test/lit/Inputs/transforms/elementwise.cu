// 1D guarded kernels for the transform tests: math calls, float divisions,
// an early return, a grid-stride loop.
#define N (1 << 20)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, a = 2.0f) \
    buffers(x[n] in, y[n] inout) noalias
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = N) \
    buffers(in[n] in, w[n] in, out[n] out) noalias
__global__ void mathy(int n, float *in, const float *w, float *out) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  float s = expf(v) + logf(w[i] + 1.0f) * sinf(v) - cosf(v) / (1.0f + powf(v, 2.0f));
  out[i] = s / v / w[i] + 1.0f / sqrtf(v * v + 1.0f);
}

#pragma kopt optimize launch(grid: 64; block: 256) args(n = N) buffers(x[n] inout)
__global__ void grid_stride(int n, float *x) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] = x[i] * 2.0f;
}
