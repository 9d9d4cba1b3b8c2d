// Thread block clusters for cuda_threads.h: the blocks of one cluster run at
// once, cluster.sync() is a barrier over all their threads (a thread that has
// returned counts as arrived, as on the GPU), and block_rank() is the block's
// x-major rank in the cluster. __shared__ variables are statics, so the blocks
// of a cluster share one copy: map_shared_rank(p, r) returns p itself. That is
// faithful for code whose block of rank r keeps its part of a shared array at
// index r (what split-k writes); other shared memory in a cluster kernel would
// race here, and tests must not use the harness for such code.
#pragma once

#include <barrier>

struct KoptEmulatedCluster {
  KoptEmulatedCluster(unsigned Threads, dim3 Blocks) : Barrier(Threads), Dims(Blocks) {}
  std::barrier<> Barrier;
  dim3 Dims;
};
inline thread_local KoptEmulatedCluster *kopt_emulated_cluster = nullptr;
inline thread_local unsigned kopt_block_rank = 0;

namespace cooperative_groups {
struct cluster_group {
  void sync() const { kopt_emulated_cluster->Barrier.arrive_and_wait(); }
  unsigned block_rank() const { return kopt_block_rank; }
  unsigned num_blocks() const {
    dim3 D = kopt_emulated_cluster->Dims;
    return D.x * D.y * D.z;
  }
  template <class T> T *map_shared_rank(T *Address, int Rank) const {
    if (Rank < 0 || unsigned(Rank) >= num_blocks())
      kopt_emulation_error("map_shared_rank names a block outside the cluster");
    return Address;
  }
};
inline cluster_group this_cluster() { return {}; }
} // namespace cooperative_groups
