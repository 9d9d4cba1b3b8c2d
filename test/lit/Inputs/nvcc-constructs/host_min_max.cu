// Host code calling min and max unqualified, as CUDA's headers let nvcc's host pass.
#include <type_traits>

__global__ void clamp(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = min(max(x[i], 0.0f), 1.0f);
}

static_assert(std::is_same_v<decltype(max(1, 2)), int>);
static_assert(std::is_same_v<decltype(min(1, 2u)), unsigned int>);
static_assert(std::is_same_v<decltype(max(1L, 2L)), long>);
static_assert(std::is_same_v<decltype(min(1.0f, 2.0)), double>);

int blocksFor(int n, unsigned threads) {
  int blocks = max(1, n / (int)threads);
  unsigned capped = min(threads, 1024u);
  float scale = max(192.0f / (float)n, 1.0f);
  return min(blocks, 65535) + (int)capped + (int)scale;
}
