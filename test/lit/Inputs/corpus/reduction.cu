// A shared-memory tree reduction finished with warp shuffles.
#define BLOCK 256

__global__ void reduce_sum(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  extern __shared__ float scratch[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n)
    v = in[i];
  if (i + blockDim.x < n)
    v += in[i + blockDim.x];
  partial[tid] = v;
  scratch[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    v = partial[tid] + partial[tid + 32];
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
  }
  if (tid == 0)
    out[blockIdx.x] = v;
}

void sum(const float *in, float *out, int n, cudaStream_t stream) {
  int blocks = (n + BLOCK * 2 - 1) / (BLOCK * 2);
  reduce_sum<<<blocks, BLOCK, BLOCK * sizeof(float), stream>>>(in, out, n);
}

// The same with cooperative groups (included last: the lines above stay put).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduce_cg(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = warp.size() / 2; offset > 0; offset /= 2)
    v += warp.shfl_down(v, offset);
  block.sync();
  if (warp.thread_rank() == 0)
    atomicAdd(out, v);
}
