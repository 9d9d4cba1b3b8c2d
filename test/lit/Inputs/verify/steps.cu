// A program whose kernels kcc switches at run time (KOPT_VARIANTS): two
// time steps launched in a loop. Without a GPU the launches fail, and the
// switch before each launch still runs, so the log shows what would have run.
// The kernels have the names of examples/app's kernels, whose committed cache
// entries stand for the entries a build of this program would have used.
#include <cstdio>

#pragma kopt optimize launch(grid: 4; block: 64) args(n = 256) buffers(x[n] inout)
__global__ void matmul(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 0.5f;
}

#pragma kopt optimize launch(grid: 4; block: 64) args(n = 256) buffers(x[n] inout)
__global__ void bias_relu(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

int main() {
  float *x = nullptr;
  for (int step = 0; step < 3; ++step) {
    matmul<<<4, 64>>>(256, x);
    bias_relu<<<dim3(4), dim3(64)>>>(256, x);
  }
  (void)cudaGetLastError();
  std::printf("steps: done\n");
  return 0;
}
