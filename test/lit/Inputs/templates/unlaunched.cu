// A kernel template used with two arguments and launched with neither.
#define N 1024

#pragma kopt optimize launch(grid: N / 32; block: 32) args(n = N) buffers(x[n] inout)
template <int Block> __global__ void tile_scale(int n, float *x) {
  __shared__ float t[Block];
  int i = blockIdx.x * Block + threadIdx.x;
  t[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n)
    x[i] = 2.0f * t[threadIdx.x];
}

template __global__ void tile_scale<16>(int, float *);

template __global__ void tile_scale<32>(int, float *);
