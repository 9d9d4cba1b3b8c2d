// cub::WarpReduce with one TempStorage a warp, in a kernel template
// instantiated by its launch; the warp count comes from a constexpr.
#include <cub/warp/warp_reduce.cuh>

constexpr int kWarps = 4;

template <typename T>
#pragma kopt optimize launch(grid: n / 128; block: 128) args(n = 1 << 20) buffers(x[n] in, out[n / 32] out)
__global__ void warp_sums(const T *x, T *out, int n) {
  using WarpReduce = cub::WarpReduce<T>;
  __shared__ typename WarpReduce::TempStorage temp[kWarps];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = threadIdx.x / 32;
  T v = i < n ? x[i] : T(0);
  T total = WarpReduce(temp[warp]).Sum(v);
  if (threadIdx.x % 32 == 0)
    out[i / 32] = total;
}

void launch(const float *x, float *out, int n) { warp_sums<float><<<n / 128, 128>>>(x, out, n); }
