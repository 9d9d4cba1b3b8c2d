// cub::BlockScan with items per thread and a block-wide aggregate; the scan's
// configuration lives in a struct of the file's own, in its own namespace.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

namespace config {
template <int Threads, int Items> struct Tile {
  static constexpr int kThreads = Threads;
  static constexpr int kItems = Items;
  static constexpr int kSize = Threads * Items;
};
} // namespace config

using ScanTile = config::Tile<128, 4>;

#pragma kopt optimize launch(grid: n / 512; block: 128) args(n = 1 << 20) \
    buffers(in[n] in, out[n] out, totals[n / 512] out)
__global__ void tile_scan(const int *in, int *out, int *totals, int n) {
  using Load = cub::BlockLoad<int, ScanTile::kThreads, ScanTile::kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using Scan = cub::BlockScan<int, ScanTile::kThreads>;
  using Store =
      cub::BlockStore<int, ScanTile::kThreads, ScanTile::kItems, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } temp;
  int items[ScanTile::kItems];
  int offset = blockIdx.x * ScanTile::kSize;
  Load(temp.load).Load(in + offset, items);
  __syncthreads();
  int aggregate;
  Scan(temp.scan).ExclusiveSum(items, items, aggregate);
  __syncthreads();
  Store(temp.store).Store(out + offset, items);
  if (threadIdx.x == 0)
    totals[blockIdx.x] = aggregate;
}
