// Whether the iterations of a loop can run at once: no iteration may touch a
// location that another iteration writes, nor one that code outside the loop
// (running beside it) writes or reads where the loop writes. Indices are
// compared as polynomials (LinearIndex.h); a flattened index r * S + c is
// taken apart into (r, c) where the ranges prove 0 <= c < S, so that
// covariance's symm[j1 * M + j2] and its mirror symm[j2 * M + j1] are seen to
// meet only where j2 == j1. Anything that cannot be proven apart is refused
// with the line and column of the access.
#pragma once

#include "clang-plugin/transforms/LinearIndex.h"
#include "clang-plugin/transforms/UnitRewriter.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <set>
#include <vector>

namespace clang {
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace kopt::transform {

// One memory access: the buffer it reaches (a pointer parameter, or the
// variable behind another pointer), its index (flat: one component; p[i][k]
// on a pointer to arrays: two; empty where unknown), read or write.
struct IndexedAccess {
  const clang::VarDecl *Root = nullptr;
  std::vector<Linear> Index;
  bool Read = false, Write = false;
  const clang::Expr *At = nullptr;
};

// The kernel's accesses and what its bounds checks and thread positions say
// of its variables.
class AccessIndexer {
public:
  // Positions: the kernel's blockIdx * blockDim + threadIdx expressions.
  AccessIndexer(const UnitAST &U, llvm::ArrayRef<const clang::Expr *> Positions);

  std::vector<IndexedAccess> accessesIn(const clang::Stmt *S) const;
  // The ranges known where S runs: variables set from a thread position plus
  // a constant are at least that constant; the conditions of the ifs around
  // S and the early returns before it bound variables that never change.
  Ranges rangesAt(const clang::Stmt &S) const;
  std::optional<Linear> linear(const clang::Expr *E) const;
  bool assigned(const clang::VarDecl *V) const { return Assigned.count(V) > 0; }

  // A variable that never changes after its initializer, a position plus
  // Added (null for nothing), where Added is the same for every thread:
  // int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1.
  struct PositionVar {
    const clang::VarDecl *Var = nullptr;
    const clang::Expr *Added = nullptr;
  };
  std::vector<PositionVar> positionVars() const;

private:
  const clang::Expr *valueOf(const clang::VarDecl *V) const;
  void addBound(Ranges &R, const clang::Expr *Cond, bool Exit) const;

  const UnitAST &U;
  std::set<const clang::Expr *> PositionSums;
  std::set<const clang::VarDecl *> Assigned; // Assigned or incremented anywhere.
};

// The kernel's x positions, blockIdx.x * blockDim.x + threadIdx.x; fails where
// it reads the thread geometry in any other way (blockIdx.z aside) or has
// __launch_bounds__ (the transforms that need this change the block).
llvm::Expected<std::vector<const clang::Expr *>> xPositions(const UnitAST &U);

// Fails at the first pair of accesses that may meet: Inside runs once an
// iteration of the loop over Counter (its range in Known), Outside once
// beside the loop. Different buffers may overlap unless NoAlias, or one of
// them is __restrict__.
llvm::Error checkIndependent(const UnitAST &U, const clang::VarDecl *Counter,
                             llvm::ArrayRef<IndexedAccess> Inside,
                             llvm::ArrayRef<IndexedAccess> Outside, const Ranges &Known,
                             bool NoAlias);

} // namespace kopt::transform
