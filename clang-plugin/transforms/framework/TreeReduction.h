// A block's tree reduction through shared memory, as textbooks and
// application codes write it:
//   for (s = blockDim.x / 2; s > 0; s >>= 1) {
//     if (tid < s) sdata[tid] += sdata[tid + s];
//     __syncthreads();
//   }
// warp-shuffle-reduce folds such a loop by shuffles; the cooperative family
// replaces a tree whose total goes to global memory by one atomic with an
// atomic a thread (normalize/TreeAtomics.cpp). Both match it here.
#pragma once

#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <llvm/Support/Error.h>

#include <optional>
#include <set>
#include <string>

namespace clang {
class Expr;
class ForStmt;
class Stmt;
class VarDecl;
class ASTContext;
} // namespace clang

namespace kopt::transform {

// How sdata[tid] takes in sdata[tid + s]: `+=` (or a = a + b) or a call
// (max, fminf, ...) with both as its arguments.
struct TreeFold {
  std::string Call; // Empty for a sum.
};

// A tree loop, with what a rewrite needs.
struct TreeLoop {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Array = nullptr; // The __shared__ array.
  TreeFold How;
  std::optional<int64_t> Elements; // A constant start's 2 * s; empty for blockDim.x.
};

// The loop as a tree reduction, or why not (with its line:col). Changed: the
// variables the kernel assigns (a local that holds threadIdx.x and is never
// assigned again reads as threadIdx.x).
llvm::Expected<TreeLoop> matchTreeLoop(UnitAST &U, const clang::ForStmt &For,
                                       const std::set<const clang::VarDecl *> &Changed);

// Whether S sits in the kernel's body through blocks only (every thread that
// reaches the body's statement reaches S).
bool inBlocksOnly(const clang::Stmt *S, const clang::Stmt *Body, clang::ASTContext &Ctx);

// Whether E is a[threadIdx.x] (or a local holding it) with a a __shared__
// array: the array, or null.
const clang::VarDecl *ownSharedElement(const clang::Expr *E,
                                       const std::set<const clang::VarDecl *> &Changed);

} // namespace kopt::transform
