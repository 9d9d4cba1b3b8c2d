// A template-typed scalar typed through instantiation(...): the file uses two
// instantiations and launches neither.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, a = 0.5) buffers(x[n] inout) instantiation(double, long)
template <typename T, typename IdxT>
__global__ void scale(T *x, IdxT n, T a) {
  IdxT i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
template __global__ void scale<float, int>(float *, int, float);
template __global__ void scale<double, long>(double *, long, double);
