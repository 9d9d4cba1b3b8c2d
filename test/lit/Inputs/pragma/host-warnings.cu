// Host code with warnings clang gives (format, assignment as condition): nvcc
// gives its own; kopt, which parses the same file, stays quiet about them.
#include <cstdlib>
#include <cstdio>
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(y[n] out)
__global__ void fill(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1.0f;
}
int main() {
  float r = rand() / RAND_MAX;
  int unused;
  char buf[4];
  sprintf(buf, "%d%d", 12345, 678);
  printf("%f %d\n", r);
  if (r = 2) return 1;
  return 0;
}
