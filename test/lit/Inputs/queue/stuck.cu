// A kernel whose job hangs on kopt-fake-worker under FAKE_WORKER_HANG=stuck.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 8192, a = 3.0f) \
    buffers(x[n] in, y[n] out)
__global__ void stuck(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}
