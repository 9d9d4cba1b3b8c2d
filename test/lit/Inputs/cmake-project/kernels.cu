#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, s = 3.0f) \
    buffers(p[n] inout)
__global__ void scale(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= s;
}

void launch_scale(float *p, float s, int n) { scale<<<(n + 255) / 256, 256>>>(p, s, n); }
