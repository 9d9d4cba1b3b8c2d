#include "scale.cuh"
#include <vendor.cuh>
#ifdef WITH_BAD
#include "bad.cuh"
#endif

__global__ void local(float *x) { x[threadIdx.x] += 1.0f; }

void run(float *x, int n) {
  scale<<<(n + 255) / 256, 256>>>(n, 2.0f, x);
  vendor_fill<<<1, 32>>>(x);
  local<<<1, 32>>>(x);
}
