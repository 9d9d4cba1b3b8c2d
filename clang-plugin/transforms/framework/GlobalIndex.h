// The 1D shape that block-size and thread-coarsening need: the kernel reads
// threadIdx, blockIdx and blockDim only in global x indices
// (blockIdx.x * blockDim.x + threadIdx.x, in any order, possibly with an
// offset: k + 1 + blockIdx.x * blockDim.x + threadIdx.x) and, for a grid-stride
// loop, in blockDim.x * gridDim.x; no other thread geometry.
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"

#include <optional>
#include <vector>

namespace clang {
class Expr;
} // namespace clang

namespace kopt::transform {

struct UnitAST;

// One global x index: the whole sum, and its two thread-geometry addends.
struct GlobalIndex {
  const clang::Expr *Whole;   // k + 1 + blockIdx.x * blockDim.x + threadIdx.x
  const clang::Expr *Product; // blockIdx.x * blockDim.x
  const clang::Expr *Thread;  // threadIdx.x
  bool Offset = false;        // Whole has addends besides those two (k, 1).
};

struct GlobalIndexShape {
  std::vector<GlobalIndex> Indices; // Each global x index, outermost sums only.
  bool GridStride = false;          // blockDim.x * gridDim.x occurs.
};

// Fails, saying why, where the kernel has another shape.
llvm::Expected<GlobalIndexShape> findGlobalIndexShape(UnitAST &AST);

// What the front end's features tell beforehand: a loop steps by
// blockDim.x * gridDim.x, written in its step or kept in a local.
bool mayHaveGridStrideLoop(const frontend::KernelSummary &Kernel);

// blockDim.x * gridDim.x, either order (parentheses and casts looked through).
bool isGridStrideProduct(const clang::Expr *E);

// What the front end's features tell beforehand: 1D, guarded or grid-stride,
// no shared memory, barriers or warp intrinsics, and a pragma block of
// (x, 1, 1) where the pragma gives one, or why not. Not enough on its own: a
// rewrite checks the AST with findGlobalIndexShape.
Fit fits1DGuarded(const frontend::KernelSummary &Kernel);

} // namespace kopt::transform
