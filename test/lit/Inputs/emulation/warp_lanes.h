// Warp intrinsics for cuda_threads.h. The lanes a call's mask names meet in
// one exchange of their warp: each puts its value in, waits for all of them,
// takes the value of its source lane, and the last one out clears the
// exchange for the next round. Calls of disjoint masks (groups of lanes within
// a warp) meet in different exchanges. What CUDA leaves undefined aborts with
// a message: a mask without the caller or with lanes the block does not have,
// lanes of one mask in different intrinsics, a source lane outside the mask,
// a lane of the mask that has exited, or a wait of more than 30 s.
#pragma once

#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

[[noreturn]] inline void kopt_emulation_error(const char *What) {
  std::fprintf(stderr, "emulation: %s\n", What);
  std::abort();
}

struct KoptWarp {
  enum class Op { None, Shuffle, Sync };
  struct Exchange {
    Op Kind = Op::None;
    unsigned Arrived = 0, Left = 0;
    bool Full = false;
    uint64_t Values[32] = {};
  };

  unsigned Present = 0; // The lanes the block has in this warp.
  unsigned Exited = 0;  // The lanes that have returned.
  std::mutex Mutex;
  std::condition_variable Changed;
  std::map<unsigned, Exchange> ByMask;

  // Lane's part in one exchange of Mask: its value in, the value of Source
  // (a lane of Mask, or -1 for none) out.
  uint64_t exchange(unsigned Mask, unsigned Lane, Op Kind, uint64_t Value, int Source) {
    if (!(Mask >> Lane & 1u))
      kopt_emulation_error("a warp intrinsic's mask does not name the calling lane");
    if (Mask & ~Present)
      kopt_emulation_error("a warp intrinsic's mask names lanes the block does not have");
    if (Source >= 0 && !(Mask >> Source & 1u))
      kopt_emulation_error("a shuffle reads a lane outside its mask");
    std::unique_lock<std::mutex> Lock(Mutex);
    unsigned Lanes = std::popcount(Mask);
    wait(Lock, [&] { return !ByMask[Mask].Full; }, Mask);
    Exchange &X = ByMask[Mask];
    if (X.Arrived == 0)
      X.Kind = Kind;
    else if (X.Kind != Kind)
      kopt_emulation_error("lanes of one mask meet in different warp intrinsics");
    X.Values[Lane] = Value;
    if (++X.Arrived == Lanes) {
      X.Full = true;
      Changed.notify_all();
    } else {
      wait(Lock, [&] { return X.Full; }, Mask);
    }
    uint64_t Out = Source >= 0 ? X.Values[Source] : Value;
    if (++X.Left == Lanes) {
      X = Exchange{};
      Changed.notify_all();
    }
    return Out;
  }

  void exit(unsigned Lane) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Exited |= 1u << Lane;
    Changed.notify_all();
  }

private:
  template <class Ready> void wait(std::unique_lock<std::mutex> &Lock, Ready R, unsigned Mask) {
    auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!R()) {
      if (Mask & Exited)
        kopt_emulation_error("a warp intrinsic waits for a lane that has exited");
      if (Changed.wait_until(Lock, Deadline) == std::cv_status::timeout && !R())
        kopt_emulation_error("a warp intrinsic waited 30 s for its lanes");
    }
  }
};

inline thread_local KoptWarp *kopt_warp = nullptr;
inline thread_local unsigned kopt_lane = 0;

template <class T> uint64_t kopt_bits(T V) {
  static_assert(sizeof(T) <= 8, "a shuffle moves at most 8 bytes");
  uint64_t Bits = 0;
  std::memcpy(&Bits, &V, sizeof V);
  return Bits;
}
template <class T> T kopt_from_bits(uint64_t Bits) {
  T V;
  std::memcpy(&V, &Bits, sizeof V);
  return V;
}

inline void kopt_check_width(int Width) {
  if (Width < 1 || Width > 32 || (Width & (Width - 1)))
    kopt_emulation_error("a shuffle's width is not a power of two up to 32");
}

template <class T> T __shfl_sync(unsigned Mask, T V, int Src, int Width = 32) {
  kopt_check_width(Width);
  int Source = int(kopt_lane) / Width * Width + (Src % Width + Width) % Width;
  return kopt_from_bits<T>(
      kopt_warp->exchange(Mask, kopt_lane, KoptWarp::Op::Shuffle, kopt_bits(V), Source));
}

template <class T> T __shfl_xor_sync(unsigned Mask, T V, int LaneMask, int Width = 32) {
  kopt_check_width(Width);
  int Source = int(kopt_lane) ^ LaneMask;
  // A source in a later segment gives the caller's own value.
  if (Source / Width > int(kopt_lane) / Width || Source > 31)
    Source = int(kopt_lane);
  return kopt_from_bits<T>(
      kopt_warp->exchange(Mask, kopt_lane, KoptWarp::Op::Shuffle, kopt_bits(V), Source));
}

template <class T> T __shfl_down_sync(unsigned Mask, T V, unsigned Delta, int Width = 32) {
  kopt_check_width(Width);
  int Source = int(kopt_lane) + int(Delta);
  if (int(kopt_lane) % Width + int(Delta) >= Width)
    Source = int(kopt_lane);
  return kopt_from_bits<T>(
      kopt_warp->exchange(Mask, kopt_lane, KoptWarp::Op::Shuffle, kopt_bits(V), Source));
}

template <class T> T __shfl_up_sync(unsigned Mask, T V, unsigned Delta, int Width = 32) {
  kopt_check_width(Width);
  int Source = int(kopt_lane) - int(Delta);
  if (int(kopt_lane) % Width < int(Delta))
    Source = int(kopt_lane);
  return kopt_from_bits<T>(
      kopt_warp->exchange(Mask, kopt_lane, KoptWarp::Op::Shuffle, kopt_bits(V), Source));
}

inline void __syncwarp(unsigned Mask = 0xffffffffu) {
  kopt_warp->exchange(Mask, kopt_lane, KoptWarp::Op::Sync, 0, -1);
}
