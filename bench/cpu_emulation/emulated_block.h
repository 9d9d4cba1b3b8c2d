// One thread block of an emulated launch, for bench/cpu_emulation/cuda_runtime.h: every
// CUDA thread of the block is a fiber (ucontext) on the one host thread, run in order of
// its thread index until it ends or waits at a barrier. __syncthreads() releases the
// block's fibers when every live one waits; a warp's shuffle or __syncwarp() releases
// that warp's live lanes the same way. Threads that have returned count as arrived, as
// on the GPU since Volta. A barrier nobody can pass (some threads wait at a block
// barrier, the others at a warp barrier) stops the program with a message: emulated
// results are never silently wrong because a barrier was skipped.
//
// Fibers switch only at barriers, so an atomic operation is a plain read-modify-write,
// and a kernel without barriers runs each thread to its end in turn.
#pragma once

#include <setjmp.h>
#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
inline thread_local dim3 blockIdx, threadIdx, blockDim, gridDim;
constexpr int warpSize = 32;

namespace emulation {

enum class FiberState { Ready, AtBlockBarrier, AtWarpBarrier, Done };

// A CUDA thread's fiber, kept from launch to launch: it runs the block's body each time the
// scheduler gives it one, then waits for the next.
struct Fiber {
  // Room for a kernel's locals: ample for per-thread arrays of a few KiB.
  static constexpr size_t StackBytes = 256 * 1024;
  std::unique_ptr<char[]> Stack{new char[StackBytes]}; // Untouched pages cost nothing.
  ucontext_t Start;
  jmp_buf Env;
  dim3 Thread;
  FiberState State = FiberState::Done;
  unsigned char Slot[16]; // What this lane offers to a shuffle.
};

// Runs blocks: one fiber a thread, switched with _setjmp/_longjmp (no system call; a
// fiber's first start is its only swapcontext).
class Block {
public:
  // Runs Body once as every thread of the block BlockIndex of shape Shape.
  static void run(dim3 Shape, dim3 BlockIndex, const std::function<void()> &Body) {
    Block &B = instance();
    B.Body = &Body;
    B.Threads = Shape.x * Shape.y * Shape.z;
    while (B.Fibers.size() < B.Threads)
      B.Fibers.push_back(B.startFiber());
    for (unsigned I = 0; I < B.Threads; ++I) {
      B.Fibers[I]->State = FiberState::Ready;
      B.Fibers[I]->Thread = dim3(I % Shape.x, I / Shape.x % Shape.y, I / (Shape.x * Shape.y));
    }
    B.Running = true;
    for (;;) {
      for (unsigned I = 0; I < B.Threads; ++I)
        if (B.Fibers[I]->State == FiberState::Ready) {
          B.Current = I;
          blockIdx = BlockIndex;
          threadIdx = B.Fibers[I]->Thread;
          if (!_setjmp(B.SchedulerEnv))
            _longjmp(B.Fibers[I]->Env, 1);
        }
      if (!B.release())
        break;
    }
    B.Running = false;
  }

  // The calling thread waits until the block's live threads all do (__syncthreads).
  void blockBarrier() { wait(FiberState::AtBlockBarrier); }
  // The calling thread waits until its warp's live lanes all do (__syncwarp, shuffles).
  void warpBarrier() { wait(FiberState::AtWarpBarrier); }

  unsigned lane() const { return Current % warpSize; }
  // The slot of lane L of the calling thread's warp, or null past the block's end.
  unsigned char *slotOfLane(unsigned L) {
    unsigned I = Current - Current % warpSize + L;
    return I < Threads ? Fibers[I]->Slot : nullptr;
  }
  unsigned char *ownSlot() { return Fibers[Current]->Slot; }

  static Block &active() {
    if (!instance().Running) {
      std::fprintf(stderr, "cpu emulation: a barrier or shuffle outside a kernel launch\n");
      std::exit(3);
    }
    return instance();
  }

private:
  static Block &instance() {
    static Block B;
    return B;
  }

  std::unique_ptr<Fiber> startFiber() {
    auto F = std::make_unique<Fiber>();
    getcontext(&F->Start);
    F->Start.uc_stack.ss_sp = F->Stack.get();
    F->Start.uc_stack.ss_size = Fiber::StackBytes;
    F->Start.uc_link = nullptr; // A fiber never returns.
    Starting = F.get();
    makecontext(&F->Start, &Block::fiberMain, 0);
    ucontext_t Here;
    if (!_setjmp(SchedulerEnv))
      swapcontext(&Here, &F->Start); // It comes back at its first wait, through SchedulerEnv.
    return F;
  }

  static void fiberMain() {
    Block &B = instance();
    Fiber &F = *B.Starting;
    for (;;) {
      if (!_setjmp(F.Env))
        _longjmp(B.SchedulerEnv, 1);
      (*B.Body)();
      F.State = FiberState::Done;
    }
  }

  void wait(FiberState At) {
    Fiber &F = *Fibers[Current];
    F.State = At;
    if (!_setjmp(F.Env))
      _longjmp(SchedulerEnv, 1);
    threadIdx = F.Thread;
  }

  // After a sweep in which no fiber was ready: releases every warp whose live lanes all
  // wait at a warp barrier, else the block barrier if every live thread waits there.
  // Returns false when every thread is done; stops the program on a deadlock.
  bool release() {
    bool Live = false, Released = false;
    for (unsigned W = 0; W < Threads; W += warpSize) {
      unsigned End = W + warpSize < Threads ? W + warpSize : Threads;
      bool AllWaiting = true, Any = false;
      for (unsigned I = W; I < End; ++I) {
        FiberState S = Fibers[I]->State;
        Any = Any || S == FiberState::AtWarpBarrier;
        AllWaiting = AllWaiting && (S == FiberState::AtWarpBarrier || S == FiberState::Done);
        Live = Live || S != FiberState::Done;
      }
      if (Any && AllWaiting) {
        for (unsigned I = W; I < End; ++I)
          if (Fibers[I]->State == FiberState::AtWarpBarrier)
            Fibers[I]->State = FiberState::Ready;
        Released = true;
      }
    }
    if (!Live)
      return false;
    if (Released)
      return true;
    for (unsigned I = 0; I < Threads; ++I)
      if (Fibers[I]->State == FiberState::AtWarpBarrier) {
        std::fprintf(stderr, "cpu emulation: deadlock: threads wait at __syncthreads() while "
                             "others of the block wait at a warp barrier\n");
        std::exit(3);
      }
    for (unsigned I = 0; I < Threads; ++I)
      if (Fibers[I]->State == FiberState::AtBlockBarrier)
        Fibers[I]->State = FiberState::Ready;
    return true;
  }

  std::vector<std::unique_ptr<Fiber>> Fibers;
  jmp_buf SchedulerEnv;
  Fiber *Starting = nullptr;
  unsigned Threads = 0, Current = 0;
  bool Running = false;
  const std::function<void()> *Body = nullptr;
};

// The dynamic shared memory of the launch being emulated (extern __shared__ arrays).
inline std::vector<unsigned char> DynamicShared;

// A kernel launch's configuration, as between <<< and >>>; the stream is ignored.
struct LaunchConfig {
  dim3 Grid, Block;
  size_t SharedBytes;
  template <class Stream = int>
  LaunchConfig(dim3 G, dim3 B, size_t S = 0, Stream = 0) : Grid(G), Block(B), SharedBytes(S) {}
};

} // namespace emulation

// kernel<<<G, B, S>>>(args) is rewritten to emulateLaunch(emulation::LaunchConfig(G, B, S),
// kernel, args): the blocks one after another, each block's threads as fibers.
// Dynamic shared memory starts as all bits set (NaN), as uninitialized memory should read.
template <class Kernel, class... Args>
void emulateLaunch(emulation::LaunchConfig Config, Kernel K, Args... A) {
  gridDim = Config.Grid;
  blockDim = Config.Block;
  std::function<void()> Body = [&] { K(A...); };
  for (unsigned BZ = 0; BZ < Config.Grid.z; ++BZ)
    for (unsigned BY = 0; BY < Config.Grid.y; ++BY)
      for (unsigned BX = 0; BX < Config.Grid.x; ++BX) {
        emulation::DynamicShared.assign(Config.SharedBytes, 0xFF);
        emulation::Block::run(Config.Block, dim3(BX, BY, BZ), Body);
      }
}

// The bytes of dynamic shared memory (an `extern __shared__ T name[];` is rewritten to a
// pointer to them).
inline void *emulatedDynamicShared() { return emulation::DynamicShared.data(); }

inline void __syncthreads() { emulation::Block::active().blockBarrier(); }
inline void __syncwarp(unsigned = 0xffffffffu) { emulation::Block::active().warpBarrier(); }

// Warp shuffles: each lane offers its value, the warp meets, each lane reads the lane it
// asks for (its own value where that lane is outside its segment of Width lanes), and the
// warp meets again before the slots are reused.
namespace emulation {
template <class T> T shuffle(T V, int Width, int (*Source)(int Lane, int Arg, int Width), int Arg) {
  static_assert(sizeof(T) <= sizeof(Fiber::Slot), "shuffle of a type wider than 16 bytes");
  Block &B = Block::active();
  std::memcpy(B.ownSlot(), &V, sizeof(T));
  B.warpBarrier();
  int Lane = int(B.lane());
  int From = Source(Lane, Arg, Width);
  T R = V;
  if (From >= 0 && From / Width == Lane / Width)
    if (unsigned char *S = B.slotOfLane(unsigned(From)))
      std::memcpy(&R, S, sizeof(T));
  B.warpBarrier();
  return R;
}
} // namespace emulation

template <class T> T __shfl_sync(unsigned, T V, int Src, int Width = warpSize) {
  return emulation::shuffle(
      V, Width, [](int Lane, int S, int W) { return Lane - Lane % W + S % W; }, Src);
}
template <class T> T __shfl_down_sync(unsigned, T V, unsigned Delta, int Width = warpSize) {
  return emulation::shuffle(V, Width, [](int Lane, int D, int) { return Lane + D; }, int(Delta));
}
template <class T> T __shfl_up_sync(unsigned, T V, unsigned Delta, int Width = warpSize) {
  return emulation::shuffle(
      V, Width, [](int Lane, int D, int W) { return Lane % W >= D ? Lane - D : -1; }, int(Delta));
}
template <class T> T __shfl_xor_sync(unsigned, T V, int Mask, int Width = warpSize) {
  return emulation::shuffle(V, Width, [](int Lane, int M, int) { return Lane ^ M; }, Mask);
}
