// Cooperative groups: a thread block, 32-thread tiles, cg::reduce, a grid
// sync in a kernel that this file launches with <<<>>> (not cooperatively:
// kopt still inspects it), and memcpy_async into shared memory.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define TILE 32
#define TILE_ELEMS 512

__device__ float square(float v) { return v * v; }

#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = 1 << 20) buffers(x[n] in, out[1] inout)
__global__ void sum_squares(const float *x, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  float v = i < n ? square(x[i]) : 0.0f;
  float s = cg::reduce(tile, v, cg::plus<float>());
  block.sync();
  if (tile.thread_rank() == 0)
    atomicAdd(out, s);
}

#pragma kopt optimize launch(grid: 64; block: 256) args(n = 1 << 20) buffers(x[n] inout)
__global__ void two_phase(float *x, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    x[i] *= 2.0f;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    x[i] += x[n - 1 - i];
}

#pragma kopt optimize launch(grid: n / TILE_ELEMS; block: 128) args(n = 1 << 20) buffers(x[n] in, y[n] out)
__global__ void reverse_tiles(const float *x, float *y, int n) {
  __shared__ float tile[TILE_ELEMS];
  cg::thread_block block = cg::this_thread_block();
  int base = block.group_index().x * TILE_ELEMS;
  cg::memcpy_async(block, tile, x + base, sizeof(float) * TILE_ELEMS);
  cg::wait(block);
  for (int i = block.thread_rank(); i < TILE_ELEMS; i += block.size())
    y[base + i] = tile[TILE_ELEMS - 1 - i];
}

void run(const float *x, float *out, float *y, int n) {
  sum_squares<<<n / 256, 256>>>(x, out, n);
  two_phase<<<64, 256>>>(y, n);
  reverse_tiles<<<n / TILE_ELEMS, 128>>>(x, y, n);
}
