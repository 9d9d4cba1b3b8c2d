// The kernel's accesses to the arrays its pointer parameters point to, as
// subscript chains (A[i], A[i][j] on a parameter of type T (*)[N]), with their
// element index as an index polynomial; and the loops whose bounds are
// literals, whose variables a stencil analysis enumerates.
#pragma once

#include "clang-plugin/analysis/IndexPolynomial.h"

#include <map>
#include <vector>

namespace clang {
class ArraySubscriptExpr;
class ParmVarDecl;
} // namespace clang

namespace kopt::frontend {

// One use of a pointer parameter: through subscripts (Levels, nearest to the
// pointer first) or another use (Levels empty: passed on, offset, compared).
struct ArrayAccess {
  const clang::ParmVarDecl *Param = nullptr;
  const clang::Expr *Use = nullptr; // The parameter's reference.
  std::vector<const clang::ArraySubscriptExpr *> Levels;
  bool Read = false, Write = false; // Another use counts as both.
  const clang::ArraySubscriptExpr *top() const { return Levels.empty() ? nullptr : Levels.back(); }
};

// Every use of the kernel's pointer parameters, in the body's order.
std::vector<ArrayAccess> pointerParamAccesses(const clang::FunctionDecl &Kernel,
                                              clang::ASTContext &Ctx);

// The element index of a subscript chain: A[i][j] on T (*)[N] is i * N + j.
llvm::Expected<IndexPoly> linearIndex(const ArrayAccess &A, IndexPolyBuilder &B,
                                      clang::ASTContext &Ctx);

// for (int v = L; v < H; ++v) with literal bounds, at most MaxTrip iterations,
// whose body neither leaves early nor writes v: v's inclusive range.
std::map<const clang::VarDecl *, std::pair<int64_t, int64_t>>
literalLoops(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx, int64_t MaxTrip = 17);

} // namespace kopt::frontend
