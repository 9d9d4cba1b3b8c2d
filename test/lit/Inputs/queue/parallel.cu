// One kernel that eight compiles at once miss together: one job.
#pragma kopt optimize launch(grid: 64; block: 256) args(n = 16384) buffers(x[n] in, y[n] out)
__global__ void copyHalf(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.5f * x[i];
}
