// A pragma with a mistake: kcc fails the compile with clang's diagnostic.
#pragma kopt optimize launch(grid: 1; blok: 32) args(n = 32)
__global__ void kernel(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = 0;
}
