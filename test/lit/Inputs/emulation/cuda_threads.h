// Runs CUDA kernels on the CPU with real block semantics, for lit tests of
// transforms that add shared memory and barriers: each block's threads are OS
// threads, __syncthreads() is a barrier among them, and __shared__ variables
// are statics (blocks run one after another, so one copy serves each block).
// Warp shuffles exchange values among 32 consecutive threads of a block (the
// lanes of a warp), each exchange between two barriers of that warp.
// Checks what a transform computes, not timing; races between the threads of
// a block show up as wrong or varying results.
#pragma once

#include <algorithm>
#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#define __global__
#define __host__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
inline std::barrier<> *kopt_emulated_block = nullptr;

inline void __syncthreads() { kopt_emulated_block->arrive_and_wait(); }

// One warp's lanes: a barrier among them and a slot each for a shuffled value.
struct KoptEmulatedWarp {
  explicit KoptEmulatedWarp(unsigned Lanes) : Lanes(Lanes), Barrier(Lanes) {}
  unsigned Lanes;
  std::barrier<> Barrier;
  alignas(16) unsigned char Slots[32][16];
};
inline thread_local KoptEmulatedWarp *kopt_emulated_warp = nullptr;
inline thread_local unsigned kopt_emulated_lane = 0;

// Every lane publishes V, then reads lane Source's (its own where Source is
// outside the warp or the width-wide segment, as on the GPU).
template <class T> T kopt_emulated_shuffle(T V, unsigned Source, int Width) {
  static_assert(sizeof(T) <= 16, "a shuffled value is at most 16 bytes");
  KoptEmulatedWarp &W = *kopt_emulated_warp;
  const unsigned Lane = kopt_emulated_lane, Segment = Lane / unsigned(Width);
  std::memcpy(W.Slots[Lane], &V, sizeof(T));
  W.Barrier.arrive_and_wait();
  T Result = V;
  if (Source < W.Lanes && Source / unsigned(Width) == Segment)
    std::memcpy(&Result, W.Slots[Source], sizeof(T));
  W.Barrier.arrive_and_wait();
  return Result;
}
template <class T> T __shfl_xor_sync(unsigned, T V, int LaneMask, int Width = 32) {
  return kopt_emulated_shuffle(V, kopt_emulated_lane ^ unsigned(LaneMask), Width);
}
template <class T> T __shfl_down_sync(unsigned, T V, unsigned Delta, int Width = 32) {
  return kopt_emulated_shuffle(V, kopt_emulated_lane + Delta, Width);
}

template <class Kernel, class... Args>
void emulateLaunch(dim3 Grid, dim3 Block, Kernel K, Args... A) {
  gridDim = Grid;
  blockDim = Block;
  unsigned Threads = Block.x * Block.y * Block.z;
  for (unsigned BZ = 0; BZ < Grid.z; ++BZ)
    for (unsigned BY = 0; BY < Grid.y; ++BY)
      for (unsigned BX = 0; BX < Grid.x; ++BX) {
        std::barrier<> Barrier(Threads);
        kopt_emulated_block = &Barrier;
        std::vector<std::unique_ptr<KoptEmulatedWarp>> Warps;
        for (unsigned First = 0; First < Threads; First += 32)
          Warps.push_back(std::make_unique<KoptEmulatedWarp>(std::min(32u, Threads - First)));
        std::vector<std::thread> Pool;
        for (unsigned T = 0; T < Threads; ++T)
          Pool.emplace_back([=, Warp = Warps[T / 32].get()] {
            blockIdx = dim3(BX, BY, BZ);
            threadIdx = dim3(T % Block.x, T / Block.x % Block.y, T / (Block.x * Block.y));
            kopt_emulated_warp = Warp;
            kopt_emulated_lane = T % 32;
            K(A...);
            // A thread that ends leaves the barriers, as on the GPU.
            kopt_emulated_block->arrive_and_drop();
            Warp->Barrier.arrive_and_drop();
          });
        for (std::thread &Th : Pool)
          Th.join();
      }
}
