// _Pragma for another tool: the fast path.
#define UNROLL _Pragma("unroll")
__global__ void sum4(const float *x, float *y) {
  float s = 0.0f;
  UNROLL
  for (int k = 0; k < 4; ++k)
    s += x[4 * threadIdx.x + k];
  y[threadIdx.x] = s;
}
