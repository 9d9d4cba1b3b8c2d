// The _Pragma operator written out, with spaces inside its parentheses.
_Pragma( "kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 4096) buffers(x[n] inout)" )
__global__ void halve(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 0.5f;
}
