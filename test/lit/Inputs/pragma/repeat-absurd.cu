#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n] inout) repeat(1 << 20)
__global__ void endless(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}
