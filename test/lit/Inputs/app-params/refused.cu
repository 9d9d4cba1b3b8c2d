struct Particle { float x, y, z, m; }; // Workloads the evaluator refuses: kopt check too.
#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = 4096) buffers(pos[n] in, acc[n] out)
__global__ void accel(int n, const Particle *pos, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] = pos[i].x;
}
#pragma kopt optimize launch(grid: 16; block: 256) args(n = 4096) buffers(y[n] out)
__global__ void fine(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0;
}
