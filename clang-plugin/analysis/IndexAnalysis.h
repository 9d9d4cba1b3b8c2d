// How index expressions of a kernel depend on the thread index: the questions
// that KernelFeatures asks of an expression, following local variables to
// their initializers (int i = blockIdx.x * blockDim.x + threadIdx.x).
#pragma once

#include "clang-plugin/model/KernelFeatures.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class ParmVarDecl;
class VarDecl;
} // namespace clang

namespace kopt::frontend {

// threadIdx.x and its kin: Var is threadIdx, blockIdx, blockDim or gridDim;
// Component is 'x', 'y' or 'z'.
struct IndexBuiltin {
  llvm::StringRef Var;
  char Component = 'x';
};
std::optional<IndexBuiltin> asIndexBuiltin(const clang::Expr *E);

// Whether Pred holds for E or a sub-expression of E, looking through local
// variables into their initializers (a few levels deep).
bool anySubExpr(const clang::Expr *E, llvm::function_ref<bool(const clang::Expr *)> Pred);

bool dependsOnThreadX(const clang::Expr *E);
// threadIdx or blockIdx, any component: a value that differs between threads.
bool dependsOnThreadIndex(const clang::Expr *E);
// The parameters E reads, in order of first use.
std::vector<const clang::ParmVarDecl *> referencedParams(const clang::Expr *E);

// One term of an element index: Expr elements, times Scale (a row of a
// multidimensional array parameter, A[i][k] on float A[N][M]: i scaled by M).
struct IndexTerm {
  const clang::Expr *Expr = nullptr;
  int64_t Scale = 1;
};

// A pointer expression resolved to the parameter it points into, with the
// offsets added on the way (p + off, a local copy q = p + off, &p[off]).
struct PointerBase {
  const clang::ParmVarDecl *Param = nullptr;
  std::vector<IndexTerm> Offsets;
};
std::optional<PointerBase> resolvePointerParam(const clang::Expr *E);

// The pattern of an access whose index is the sum of Terms (no terms: *p).
struct IndexClass {
  AccessPattern Pattern = AccessPattern::Other;
  std::string Stride; // For Strided.
};
IndexClass classifyIndex(llvm::ArrayRef<IndexTerm> Terms, const clang::ASTContext &Ctx);

} // namespace kopt::frontend
