// A time-stepped decay: the same kernel in three spellings of what the user
// allows. fast-math fits all three; only the ones the user allows offer it.
#define N (1 << 20)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, dt = 0.01f) \
    buffers(u[n] inout, k[n] in)
__global__ void decay(int n, float dt, float *u, const float *k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] = u[i] * expf(-k[i] * dt) / (1.0f + dt);
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, dt = 0.01f) \
    buffers(u[n] inout, k[n] in) fastmath
__global__ void decay_fast(int n, float dt, float *u, const float *k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] = u[i] * expf(-k[i] * dt) / (1.0f + dt);
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N) buffers(u[n] inout)
__global__ void scale(int n, float *u) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] = 2.0f * u[i];
}
