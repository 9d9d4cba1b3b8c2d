// Calls into libraries whose functions synchronize or exchange data among
// threads: cooperative groups (g.sync(), g.shfl_down(v, 1), cg::reduce(g, v,
// op)) and cub's block- and warp-wide collectives (BlockReduce(t).Sum(v),
// WarpScan(t).ExclusiveSum(v, v)). Their barriers and shuffles are inside
// the library, so the kernel's features count the call itself.
#pragma once

#include <optional>
#include <string>

namespace clang {
class CallExpr;
} // namespace clang

namespace kopt::frontend {

struct CollectiveCall {
  // cooperative_groups::[group type::]function, cub::Collective::method.
  std::string Name;
  // A barrier among the block's (or the group's) threads; else a warp-level
  // exchange (shuffles, votes, warp reductions and scans).
  bool IsBarrier = false;
};

// Also for calls that a kernel template leaves unresolved (cub::BlockReduce<T, N>).
std::optional<CollectiveCall> collectiveCall(const clang::CallExpr &Call);

} // namespace kopt::frontend
