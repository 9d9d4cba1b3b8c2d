// A kernel using cooperative groups: the #include stays, nothing is copied from it.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

#define WARP 32

__global__ void warp_sum(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<WARP> tile = cg::tiled_partition<WARP>(block);
  int v = in[block.thread_rank()];
  for (int d = tile.size() / 2; d > 0; d /= 2)
    v += tile.shfl_down(v, d);
  if (tile.thread_rank() == 0)
    atomicAdd(out, v);
}

void host_only() { std::printf("not in the unit\n"); }
