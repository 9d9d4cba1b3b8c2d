// The threads that share one original thread's work after a cooperative
// rewrite (CooperativePlan.h): how they are numbered, wait for each other and
// combine their partial values, where the original thread's position comes
// from now, and the launch that gives every original thread such a group.
//   Warp:    R lanes (2 to 32) of one warp; a warp holds 32 / R groups, its
//            lanes side by side (lane = t % R) or interleaved (lane = t / (32 / R),
//            so that neighbouring groups sit on neighbouring lanes); reductions
//            by shuffles among the group's lanes, waits by __syncwarp(mask).
//   Block:   every thread of a 1D block; shuffles, then one value a warp in
//            shared memory; waits by __syncthreads().
//   Cluster: every thread of S blocks of one thread block cluster (sm_90); a
//            block reduction, then the S block totals through distributed
//            shared memory (__cluster_map_shared_rank); waits by the cluster
//            barrier. Shared arrays are indexed by the block's rank in the
//            cluster. The sm_90 intrinsics, not cooperative groups: the change
//            stays inside the kernel's definition, with nothing to include.
// Every lane of a group ends a reduction with the same value, so code outside
// the cooperative loops computes the same in every lane.
#pragma once

#include "clang-plugin/model/KernelVariant.h"
#include "clang-plugin/transforms/parallel/LoopWrites.h"

#include <string>

namespace kopt::transform {

struct LaneGroup {
  enum class Kind { Warp, Block, Cluster };
  Kind Shape = Kind::Block;
  unsigned Lanes = 0;       // Warp: lanes a group; Cluster: blocks a cluster.
  unsigned Threads = 0;     // Threads a block of the new launch.
  bool Interleaved = false; // Warp: the groups of a warp on neighbouring lanes.
  bool TwoD = false;        // The kernel has a y position (2D warp blocks are 32 wide).

  // This thread's lane in its group, and the group's size, as code.
  std::string lane() const;
  // "j += <stride>" for a counter of type T.
  std::string stride(const std::string &T) const;
  // Makes memory written by one lane visible to the group's others.
  std::string sync() const;
  // Declarations at the top of the kernel body (kopt_lane, kopt_mask, ...).
  std::string prologue() const;
  // What blockIdx.D * blockDim.D + threadIdx.D becomes (D 'x' or 'y'); empty:
  // it stays.
  std::string position(char Dim) const;
  // Code before a loop that folds Var (type T) by How: a sum's starting
  // value counts once.
  std::string beforeFold(const std::string &Var, const Fold &How) const;
  // A block of code after the loop that leaves in every lane the group's
  // combination of Var; Site makes its names unique.
  std::string reduce(const std::string &T, const std::string &Var, const Fold &How,
                     unsigned Site) const;
  // What follows the reductions after one loop.
  std::string afterReductions() const;
  // Text to put before the kernel's name (__cluster_dims__).
  std::string kernelAttributes() const;
  // The launch for the original's (grid, block).
  frontend::LaunchMapping launch() const;
  // "a warp of 8 lanes a thread", for summaries.
  std::string describe() const;

private:
  unsigned groupsPerRow() const; // Warp: groups along x in a block row.
};

} // namespace kopt::transform
