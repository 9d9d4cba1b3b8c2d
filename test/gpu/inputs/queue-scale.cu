// The kernel gpu.queue-worker queues from a build without a GPU, for a worker.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 24, a = 1.5f) \
    buffers(x[n] in, y[n] inout) budget(time = 20s)
__global__ void queueScale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
