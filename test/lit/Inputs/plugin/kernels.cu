// Annotated kernels of several shapes, and one without the pragma.
#define N (1 << 20)

namespace blas {
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, a = 2.0f) \
    buffers(x[n] in, y[n] inout) tol(rtol = 1e-5)
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
} // namespace blas

template <typename T>
#pragma kopt optimize launch(grid: n / 128; block: 128) args(n = N) buffers(p[n] out) engine(skills)
__global__ void fill(T *p, int n) {
  p[blockIdx.x * blockDim.x + threadIdx.x] = T(1);
}

extern "C" __global__ void plain(float *p) { p[threadIdx.x] = 0.0f; }

#pragma kopt optimize launch(grid: 1; block: 32) buffers(out[32] out, in[32] in) noalias
extern "C" __global__ void c_kernel(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x]; }

void run(float *x, float *y, double *d) {
  blas::saxpy<<<N / 256, 256>>>(N, 2.0f, x, y);
  fill<float><<<N / 128, 128>>>(x, N);
  fill<double><<<N / 128, 128>>>(d, N);
  plain<<<1, 32>>>(x);
  c_kernel<<<1, 32>>>(x, y);
}
