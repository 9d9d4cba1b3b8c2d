// cub::BlockReduce in a namespaced kernel: a block-wide sum and a max with a
// functor of the file's own. The unit keeps <cub/...> and copies the functor.
#include <cub/block/block_reduce.cuh>

#define THREADS 256

namespace stats {

struct MaxOf {
  __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};

using BlockReduceF = cub::BlockReduce<float, THREADS>;

#pragma kopt optimize launch(grid: (n + THREADS - 1) / THREADS; block: THREADS) args(n = 1 << 20) \
    buffers(in[n] in, sums[(n + THREADS - 1) / THREADS] out, maxes[(n + THREADS - 1) / THREADS] out)
__global__ void block_sum_max(const float *in, float *sums, float *maxes, int n) {
  __shared__ typename BlockReduceF::TempStorage temp;
  int i = blockIdx.x * THREADS + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  float sum = BlockReduceF(temp).Sum(v);
  __syncthreads(); // temp is reused below.
  float largest = BlockReduceF(temp).Reduce(v, MaxOf());
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    maxes[blockIdx.x] = largest;
  }
}

} // namespace stats

void run(const float *in, float *sums, float *maxes, int n) {
  stats::block_sum_max<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, sums, maxes, n);
}
