// Kernels with loops for the unroll tests.
#pragma kopt optimize launch(grid: 64; block: 128) args(n = 4096, k = 64) \
    buffers(a[n * k] in, out[n] out)
__global__ void rowsum(int n, int k, const float *a, float *out) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n)
    return;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) acc += a[row * k + j];
  for (int s = 1; s < 8; s <<= 1)
    acc += 0.5f;
  out[row] = acc;
}

#pragma kopt optimize launch(grid: 16; block: 64) args(n = 1024) buffers(a[n] inout)
__global__ void nested(int n, float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#pragma unroll 2
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; c++)
        a[i] += r * c;
  }
}
