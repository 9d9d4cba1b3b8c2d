// A kernel whose jobs fail on kopt-fake-worker under FAKE_WORKER_FAIL=doomed.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 4096) buffers(x[n] inout)
__global__ void doomed(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * x[i] + 1.0f;
}
