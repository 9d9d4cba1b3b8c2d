// An annotated kernel with an error: kcc must report it where nvcc does.
#pragma kopt optimize launch(grid: 1; block: 32) \
    args(n = 32) buffers(p[n] out)
__global__ void broken(float *p, int n) {
  int i = threadIdx.x;
  if (i < n)
    p[i] = missing_value;
}
