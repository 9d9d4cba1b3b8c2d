// The part of CUB that the suites' kernels use, for the CPU emulation: a block-wide
// reduction through shared storage and __syncthreads() (emulated_block.h). Every thread
// gets the result here; CUB defines it in thread 0 only, so a kernel that reads it
// elsewhere passes here and fails on the GPU.
#pragma once

#include "../cuda_runtime.h"

namespace cub {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_WARP_REDUCTIONS
};

struct Sum {
  template <class T> T operator()(const T &A, const T &B) const { return A + B; }
};
struct Max {
  template <class T> T operator()(const T &A, const T &B) const { return A < B ? B : A; }
};
struct Min {
  template <class T> T operator()(const T &A, const T &B) const { return B < A ? B : A; }
};

template <class T, int BlockDimX, BlockReduceAlgorithm = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BlockDimY = 1, int BlockDimZ = 1>
class BlockReduce {
  static constexpr int Threads = BlockDimX * BlockDimY * BlockDimZ;

public:
  struct TempStorage {
    T Values[Threads];
  };

  explicit BlockReduce(TempStorage &Storage) : Storage(Storage) {}

  template <class Op> T Reduce(T Value, Op Combine) { return Reduce(Value, Combine, Threads); }

  // The first Valid threads' values, combined in thread order.
  template <class Op> T Reduce(T Value, Op Combine, int Valid) {
    int Thread = int(threadIdx.x + BlockDimX * (threadIdx.y + BlockDimY * threadIdx.z));
    Storage.Values[Thread] = Value;
    __syncthreads();
    T Result = Storage.Values[0];
    for (int I = 1; I < Valid; ++I)
      Result = Combine(Result, Storage.Values[I]);
    __syncthreads();
    return Result;
  }

  T Sum(T Value) { return Reduce(Value, cub::Sum()); }
  T Sum(T Value, int Valid) { return Reduce(Value, cub::Sum(), Valid); }

private:
  TempStorage &Storage;
};

} // namespace cub
