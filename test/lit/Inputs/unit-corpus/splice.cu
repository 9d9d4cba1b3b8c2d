// A kernel that kopt-splice replaces with a variant.
#define N 1024

#pragma kopt optimize
__global__ void axpy(float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    y[i] += a * x[i];
}

__device__ float after(float v) { return v + 1.0f; }

#ifdef ERROR_AFTER
static_assert(sizeof(float) == 3, "error on line 14");
#endif
