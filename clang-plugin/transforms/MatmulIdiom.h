// The matmul idiom: a counted loop over k whose body reads two operands,
// one indexed by k and the thread's position in one dimension (A[row*K+k],
// row from y), the other by k and the other dimension (B[k*N+col], col from
// x). Shared-memory tiling stages both through tiles of the block.
#pragma once

#include "clang-plugin/transforms/AstEdit.h"

namespace clang {
class ArraySubscriptExpr;
} // namespace clang

namespace kopt::transform {

struct MatmulIdiom {
  const clang::ForStmt *Loop = nullptr;
  CountedLoop K;
  // Row: depends on the thread's position in RowDim only; Col: in ColDim only.
  const clang::ArraySubscriptExpr *Row = nullptr, *Col = nullptr;
  char RowDim = 'y', ColDim = 'x';
  // The body is `acc += Row * Col` alone: zero-filled tiles leave it exact.
  bool PlainProduct = false;
};

// What the front end's features tell beforehand: 2D, guarded, no shared
// memory, barriers or warp intrinsics, not a template, and a canonical loop
// reading one operand the same across x lanes and one that varies. apply
// checks the AST with findMatmulIdiom.
bool looksLikeMatmul(const frontend::KernelSummary &Kernel);

// The first loop of the kernel with the idiom, or why there is none.
llvm::Expected<MatmulIdiom> findMatmulIdiom(const UnitAST &U);

} // namespace kopt::transform
