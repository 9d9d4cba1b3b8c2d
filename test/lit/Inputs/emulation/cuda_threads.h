// Runs CUDA kernels on the CPU with real block semantics, for lit tests of
// transforms that add shared memory, barriers, warp shuffles and clusters:
// each block's threads are OS threads, __syncthreads() is a barrier among
// them, the __shfl*_sync and __syncwarp intrinsics exchange values among the
// lanes their mask names (warp_lanes.h), and __shared__ variables are statics
// (blocks run one after another, so one copy serves each block). A cluster
// launch runs the blocks of one cluster at once (cluster.h). Checks what a
// transform computes, not timing; races between the threads of a block show
// up as wrong or varying results, and a misuse of a warp intrinsic (a mask
// without the caller, a lane that exited, a wait that never ends) aborts.
#pragma once

#include <atomic>
#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#define __global__
#define __host__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static
#define __cluster_dims__(...)
#define __launch_bounds__(...)
#define __align__(N) __attribute__((aligned(N)))

// The vector type variants read shared tiles through (16-byte fragments).
struct alignas(16) float4 {
  float x, y, z, w;
};
inline float4 make_float4(float X, float Y, float Z, float W) { return {X, Y, Z, W}; }
// The other vector types variants load and store, at CUDA's alignments.
struct alignas(8) float2 {
  float x, y;
};
struct alignas(16) double2 {
  double x, y;
};
struct alignas(8) int2 {
  int x, y;
};
struct alignas(16) int4 {
  int x, y, z, w;
};
struct alignas(8) uint2 {
  unsigned x, y;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

#include "warp_lanes.h"

// One block while it runs: its barrier and its warps.
struct KoptEmulatedBlock {
  explicit KoptEmulatedBlock(unsigned Threads) : Barrier(Threads), Warps((Threads + 31) / 32) {
    for (unsigned W = 0; W < Warps.size(); ++W)
      Warps[W].Present = Threads - 32 * W >= 32 ? 0xffffffffu : (1u << (Threads - 32 * W)) - 1u;
  }
  std::barrier<> Barrier;
  std::vector<KoptWarp> Warps;
};
inline thread_local KoptEmulatedBlock *kopt_emulated_block = nullptr;

inline void __syncthreads() { kopt_emulated_block->Barrier.arrive_and_wait(); }

#include "cluster.h"

// The read-only data cache is a plain load on the CPU.
template <class T> T __ldg(const T *Address) { return *Address; }

template <class T> T atomicAdd(T *Address, T Value) {
  return std::atomic_ref<T>(*Address).fetch_add(Value);
}

template <class T> T atomicMax(T *Address, T Value) {
  std::atomic_ref<T> Ref(*Address);
  T Old = Ref.load();
  while (Old < Value && !Ref.compare_exchange_weak(Old, Value)) {
  }
  return Old;
}

template <class T> T atomicMin(T *Address, T Value) {
  std::atomic_ref<T> Ref(*Address);
  T Old = Ref.load();
  while (Value < Old && !Ref.compare_exchange_weak(Old, Value)) {
  }
  return Old;
}

// CUDA's integer max and min.
inline int max(int A, int B) { return A < B ? B : A; }
inline int min(int A, int B) { return A < B ? A : B; }

// Runs the blocks of one cluster (ClusterBlocks of them, from First in x-major
// order within Cluster's box) at once, each thread as an OS thread.
template <class Kernel, class... Args>
void kopt_run_blocks(dim3 Block, dim3 Cluster, dim3 Origin, Kernel K, Args... A) {
  unsigned Threads = Block.x * Block.y * Block.z;
  unsigned Blocks = Cluster.x * Cluster.y * Cluster.z;
  KoptEmulatedCluster Group(Threads * Blocks, Cluster);
  std::vector<std::unique_ptr<KoptEmulatedBlock>> States;
  for (unsigned B = 0; B < Blocks; ++B)
    States.push_back(std::make_unique<KoptEmulatedBlock>(Threads));
  std::vector<std::thread> Pool;
  for (unsigned B = 0; B < Blocks; ++B)
    for (unsigned T = 0; T < Threads; ++T)
      Pool.emplace_back([=, &Group, &States] {
        kopt_emulated_block = States[B].get();
        kopt_emulated_cluster = &Group;
        kopt_block_rank = B;
        blockIdx = dim3(Origin.x + B % Cluster.x, Origin.y + B / Cluster.x % Cluster.y,
                        Origin.z + B / (Cluster.x * Cluster.y));
        threadIdx = dim3(T % Block.x, T / Block.x % Block.y, T / (Block.x * Block.y));
        kopt_lane = T % 32;
        kopt_warp = &States[B]->Warps[T / 32];
        K(A...);
        // A thread that ends leaves the barriers, as on the GPU, and the
        // exchanges of its warp learn that it is gone.
        kopt_warp->exit(kopt_lane);
        kopt_emulated_block->Barrier.arrive_and_drop();
        Group.Barrier.arrive_and_drop();
      });
  for (std::thread &Th : Pool)
    Th.join();
}

template <class Kernel, class... Args>
void emulateClusterLaunch(dim3 Grid, dim3 Block, dim3 Cluster, Kernel K, Args... A) {
  if (Grid.x % Cluster.x || Grid.y % Cluster.y || Grid.z % Cluster.z) {
    std::fprintf(stderr, "emulation: the grid is not a multiple of the cluster\n");
    std::abort();
  }
  gridDim = Grid;
  blockDim = Block;
  for (unsigned BZ = 0; BZ < Grid.z; BZ += Cluster.z)
    for (unsigned BY = 0; BY < Grid.y; BY += Cluster.y)
      for (unsigned BX = 0; BX < Grid.x; BX += Cluster.x)
        kopt_run_blocks(Block, Cluster, dim3(BX, BY, BZ), K, A...);
}

template <class Kernel, class... Args>
void emulateLaunch(dim3 Grid, dim3 Block, Kernel K, Args... A) {
  emulateClusterLaunch(Grid, Block, dim3(1, 1, 1), K, A...);
}
