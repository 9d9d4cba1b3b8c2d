// repeat(N): how many launches each verification chains (issue 31).
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024, dt = 0.1f) buffers(x[n] inout) repeat(5)
__global__ void explicit_chain(int n, float dt, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += dt * x[i];
}
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024, dt = 0.1f) buffers(x[n] inout)
__global__ void default_inout(int n, float dt, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += dt * x[i];
}
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n] in, y[n] out)
__global__ void in_out(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n])
__global__ void inferred_inout(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}
#define ONE 1
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n] inout) repeat(ONE)
__global__ void one_launch(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}
