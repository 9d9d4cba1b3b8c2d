// A kernel with an error nvcc reports.
__global__ void broken(float *out) {
  int i = threadIdx.x;
  out[i] = undeclared_thing;
}
