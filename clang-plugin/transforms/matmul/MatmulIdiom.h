// The matmul idiom: a counted loop over k whose body reads operands, each
// indexed by k and the thread's position in one dimension (A[row*K+k],
// A[row][k] or A[k*M+row], row from y; B[k*N+col], B[k][col] or B[col*K+k],
// col from x), at least one for each dimension. Two may be the same array (a
// rank-k update, A[i][k] * A[j][k]); more than two make a sum of products
// (syr2k). Outside its operands the body reads no thread position. The tiled transforms stage both
// operands through shared memory.
#pragma once

#include "clang-plugin/transforms/framework/AstEdit.h"

#include <vector>

namespace clang {
class ArraySubscriptExpr;
} // namespace clang

namespace kopt::transform {

// One operand of the product: an access indexed by k and the thread's
// position in Dim only, or the access times factors the loop does not
// change, as the code groups them: in `alpha * A[i*K+k] * B[k*N+j]` the row
// operand is `alpha * A[i*K+k]`.
struct MatmulOperand {
  const clang::Expr *Value = nullptr;
  const clang::ArraySubscriptExpr *Access = nullptr; // The last subscript of A[i][k].
  char Dim = 'y';
};

struct MatmulIdiom {
  const clang::ForStmt *Loop = nullptr;
  CountedLoop K;
  // In source order; at least one follows each of x and y. Two is a
  // product; more are a sum of products over the same k (a rank-2k update,
  // A[i][k] * B[j][k] + B[i][k] * A[j][k]).
  std::vector<MatmulOperand> Operands;
  // 0 where every thread runs the same k range; else the one dimension whose
  // position the bounds follow (a triangular loop: for (k = i + 1; k < M;
  // ++k), i the row).
  char BoundsDim = 0;
  // The body is `acc += Row * Col` (or `acc = acc + Row * Col`) alone:
  // zero-filled tiles leave it exact.
  bool PlainProduct = false;
};

// What the front end's features tell beforehand: 2D, guarded, no shared
// memory, barriers or warp intrinsics, not a template, and a canonical loop
// reading one operand the same across x lanes and one that varies, or reading
// rows of a 2D array (the features see A[i] of A[i][k] only), or why not. A
// rewrite checks the AST with findMatmulIdiom.
Fit fitsMatmul(const frontend::KernelSummary &Kernel);

// The first loop of the kernel with the idiom, or why there is none.
llvm::Expected<MatmulIdiom> findMatmulIdiom(const UnitAST &U);

// Whether an access's consecutive k are consecutive in memory: k is one of
// the added terms of its last subscript (A[i*K + k], A[i][k]).
bool unitStrideInK(const clang::ArraySubscriptExpr &Access, const clang::VarDecl *K);

} // namespace kopt::transform
