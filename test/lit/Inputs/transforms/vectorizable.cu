// Elementwise kernels with float4/int4 opportunities.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1000003, a = 2.0f) \
    buffers(x[n] in, y[n] inout)
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void add_index(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i];
  out[i] = v > 0 ? v + i : -v;
}

// Not elementwise: a neighbour access.
__global__ void stencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = in[i + 1] - in[i];
}
