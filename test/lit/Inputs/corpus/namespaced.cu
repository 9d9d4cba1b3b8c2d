// Kernels in namespaces, with atomics and cooperative-free warp votes.
namespace stats {
namespace detail {
__global__ void histogram(const unsigned char *data, int n, unsigned *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u);
}
} // namespace detail

__global__ void count_positive(const float *x, int n, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool positive = i < n && x[i] > 0.0f;
  unsigned votes = __ballot_sync(0xffffffffu, positive);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(count, __popc(votes));
  __syncwarp();
}
} // namespace stats

void histogram(const unsigned char *data, int n, unsigned *bins, int *count, const float *x) {
  stats::detail::histogram<<<(n + 255) / 256, 256>>>(data, n, bins);
  stats::count_positive<<<(n + 255) / 256, 256>>>(x, n, count);
}
