// A kernel template with two instantiations, one launched from a host template.
template <typename T, int Block> __global__ void axpy(int n, T a, const T *x, T *y) {
  __shared__ T cache[Block];
  int i = blockIdx.x * Block + threadIdx.x;
  if (i < n) {
    cache[threadIdx.x] = x[i];
    y[i] = a * cache[threadIdx.x] + y[i];
  }
}

template <typename T> void launch_axpy(int n, T a, const T *x, T *y) {
  axpy<T, 128><<<(n + 127) / 128, 128>>>(n, a, x, y);
}

void run(int n, float *xf, float *yf, double *xd, double *yd) {
  axpy<float, 256><<<(n + 255) / 256, 256>>>(n, 2.0f, xf, yf);
  launch_axpy<double>(n, 3.0, xd, yd);
}
