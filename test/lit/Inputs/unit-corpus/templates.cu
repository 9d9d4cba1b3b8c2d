// A templated device helper and a kernel in a namespace calling into another.
#include <cstdint>

#define BLOCK 128
#define ROUND_UP(n, m) ((((n) + (m)-1) / (m)) * (m))
#define UNUSED_SIZE 7

namespace util {
template <typename T> __device__ T clamp01(T v) { return v < T(0) ? T(0) : (v > T(1) ? T(1) : v); }

template <typename T> struct Pair {
  T first, second;
};
} // namespace util

namespace util::detail {
__device__ float unused_detail(float x) { return x; }
} // namespace util::detail

namespace app {
#pragma kopt optimize
__global__ void saturate(float *x, std::uint32_t n) {
  __shared__ float tile[ROUND_UP(BLOCK, 32)];
  unsigned i = blockIdx.x * BLOCK + threadIdx.x;
  util::Pair<float> p{0.0f, 1.0f};
  tile[threadIdx.x] = i < n ? x[i] : p.first;
  __syncthreads();
  if (i < n)
    x[i] = util::clamp01(tile[threadIdx.x]) + p.second * 0.0f;
}
} // namespace app

template <typename T, int Factor>
#pragma kopt optimize
__global__ void scale(T *x) { x[threadIdx.x] = util::clamp01(x[threadIdx.x]) * T(Factor); }

template __global__ void scale<float, 2>(float *);
