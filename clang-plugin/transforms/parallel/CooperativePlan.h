// The cooperative rewrite of a kernel body that row-cooperative,
// inner-loop-parallel and split-k share: a group of lanes (LaneGroup.h) does
// one original thread's work. Every lane runs the body; each counted loop that
// folds values (s += e, s = fmaxf(s, e), a global y[E] += e with E the same in
// every iteration) or that writes only p[j] / p[E + j] for its counter j is
// spread over the lanes (j starts at E0 + lane and steps by the group's size),
// and a fold is followed by a group reduction that leaves the result in every
// lane. A loop that is neither but holds such loops runs in every lane alike
// (covariance's loop over j2 around its sum over i). Outside the spread loops
// every lane holds the same values (nothing else reads the thread's position),
// so branches there are the group's alike and waits are safe; stores there run
// in lane 0, and the group waits for them before reading memory again.
// Anything else (scans, recurrences, loops carrying other state, while loops
// without loops inside) is refused with the line and column of the reason.
#pragma once

#include "clang-plugin/transforms/framework/UnitRewriter.h"
#include "clang-plugin/transforms/parallel/LaneGroup.h"

#include <llvm/Support/Error.h>

#include <memory>

namespace kopt::transform {

class CooperativePlanner {
public:
  // NoAlias: the pragma's noalias (pointer parameters never overlap), which a
  // global accumulator needs unless its parameter is __restrict__ or the loop
  // reaches no other pointer.
  CooperativePlanner(UnitAST &U, const LaneGroup &Group, bool NoAlias);
  ~CooperativePlanner();

  // Checks the kernel body and queues its edits; the caller replaces the
  // thread's position (LaneGroup::position) and adds the prologue.
  llvm::Error run();

  unsigned loops() const;      // Loops spread over the lanes.
  unsigned reductions() const; // Group reductions after them.

private:
  class Impl;
  std::unique_ptr<Impl> P;
};

// The whole rewrite for a kernel whose threads differ only in their global x
// (and, where Group.TwoD, y) positions, blockIdx * blockDim + threadIdx: the
// plan above, the positions the group's, the prologue, the kernel's
// attributes. Where the kernel names its geometry through locals (int tx =
// threadIdx.x), they are inlined first.
struct CooperativeRewrite {
  std::string Unit;
  unsigned Loops = 0, Reductions = 0;
  std::vector<std::string> Steps; // Normalizations it needed (geometry aliases).
};
llvm::Expected<CooperativeRewrite> rewriteCooperative(const TransformInput &In,
                                                      const LaneGroup &Group);

// What the front end's features tell beforehand: a 1D or 2D kernel with a
// bounds check (the extra groups of a rounded grid leave by it), nothing that
// ties threads together (shared memory, barriers, warp intrinsics), no
// grid-stride loop, and a pragma block of (x, y, 1) where the pragma gives
// one; or why not. rewriteCooperative checks the AST. AtomicTrees: the
// transform goes through rewriteCooperative, whose tree-atomics
// normalization may free a kernel whose shared memory and barriers serve
// only block trees (Normalization.h): such a kernel fits too.
Fit cooperativeFit(const frontend::KernelSummary &Kernel, bool AtomicTrees = false);
// Whether the kernel reads a y component (a 2D kernel).
bool readsY(const frontend::KernelSummary &Kernel);

} // namespace kopt::transform
