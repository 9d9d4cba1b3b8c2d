// A helper that calls a helper defined after it, through a forward
// declaration, and an extern "C" kernel (its symbol is its plain name).
__device__ float later(float x, float by = 1.0f);
template <typename T> __device__ T later_t(T x);

__device__ float helper(float x) { return later(x) * later_t(x); }

__device__ float later(float x, float by) { return x + by; }
template <typename T> __device__ T later_t(T x) { return x * 2; }

extern "C" {
#pragma kopt optimize launch(grid: 1; block: 32) args(n = 32) buffers(p[n] inout)
__global__ void ckernel(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = helper(p[threadIdx.x]);
}
}
