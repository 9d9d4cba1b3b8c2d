// _Pragma, and the word kopt in a comment, but no pragma for kopt: kopt's
// front end looks and finds none, and the source compiles as written.
#define UNROLL _Pragma("unroll")
__global__ void sum2(const float *x, float *y) {
  float s = 0.0f;
  UNROLL
  for (int k = 0; k < 2; ++k)
    s += x[2 * threadIdx.x + k];
  y[threadIdx.x] = s;
}
