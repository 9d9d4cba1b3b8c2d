// Runs CUDA kernels on the CPU with real block semantics, for lit tests of
// transforms that add shared memory and barriers: each block's threads are OS
// threads, __syncthreads() is a barrier among them, and __shared__ variables
// are statics (blocks run one after another, so one copy serves each block).
// Checks what a transform computes, not timing; races between the threads of
// a block show up as wrong or varying results.
#pragma once

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

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
inline std::barrier<> *kopt_emulated_block = nullptr;

inline void __syncthreads() { kopt_emulated_block->arrive_and_wait(); }

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
        std::vector<std::thread> Pool;
        for (unsigned T = 0; T < Threads; ++T)
          Pool.emplace_back([=] {
            blockIdx = dim3(BX, BY, BZ);
            threadIdx = dim3(T % Block.x, T / Block.x % Block.y, T / (Block.x * Block.y));
            K(A...);
            // A thread that ends leaves the barrier, as on the GPU.
            kopt_emulated_block->arrive_and_drop();
          });
        for (std::thread &Th : Pool)
          Th.join();
      }
}
