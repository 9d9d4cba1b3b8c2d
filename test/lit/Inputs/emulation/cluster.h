// Thread block clusters for cuda_threads.h: the blocks of one cluster run at
// once, and the sm_90 intrinsics act on them: __cluster_barrier_arrive/_wait
// are a barrier over all their threads (a thread that has returned counts as
// arrived, as on the GPU), __clusterRelativeBlockRank() is the block's x-major
// rank in the cluster. __shared__ variables are statics, so the blocks of a
// cluster share one copy: __cluster_map_shared_rank(p, r) returns p itself.
// That is faithful for code whose block of rank r keeps its part of a shared
// array at index r (what split-k writes); other shared memory in a cluster
// kernel would race here, and tests must not use the harness for such code.
#pragma once

#include <barrier>
#include <optional>

struct KoptEmulatedCluster {
  KoptEmulatedCluster(unsigned Threads, dim3 Blocks) : Barrier(Threads), Dims(Blocks) {}
  std::barrier<> Barrier;
  dim3 Dims;
  unsigned blocks() const { return Dims.x * Dims.y * Dims.z; }
};
inline thread_local KoptEmulatedCluster *kopt_emulated_cluster = nullptr;
inline thread_local unsigned kopt_block_rank = 0;
// Arrived but not yet waited: the barrier's token between the two halves.
inline thread_local std::optional<std::barrier<>::arrival_token> kopt_cluster_arrival;

inline void __cluster_barrier_arrive() {
  if (kopt_cluster_arrival)
    kopt_emulation_error("__cluster_barrier_arrive twice without a wait");
  kopt_cluster_arrival = kopt_emulated_cluster->Barrier.arrive();
}

inline void __cluster_barrier_wait() {
  if (!kopt_cluster_arrival)
    kopt_emulation_error("__cluster_barrier_wait without an arrive");
  kopt_emulated_cluster->Barrier.wait(std::move(*kopt_cluster_arrival));
  kopt_cluster_arrival.reset();
}

inline unsigned __clusterRelativeBlockRank() { return kopt_block_rank; }

inline void *__cluster_map_shared_rank(const void *Address, unsigned Rank) {
  if (Rank >= kopt_emulated_cluster->blocks())
    kopt_emulation_error("__cluster_map_shared_rank names a block outside the cluster");
  return const_cast<void *>(Address);
}
