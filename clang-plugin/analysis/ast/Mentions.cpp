#include "clang-plugin/analysis/ast/Mentions.h"

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"

#include <clang/AST/Expr.h>

namespace kopt::transform {

bool mentions(const clang::Stmt *S, const clang::VarDecl *V) { return countRefs(S, V) > 0; }

unsigned countRefs(const clang::Stmt *S, const clang::VarDecl *V) {
  unsigned N = 0;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X))
      N += Ref->getDecl() == V;
  });
  return N;
}

bool mentionsThroughLocals(const clang::Expr *E, const clang::VarDecl *V) {
  return frontend::anySubExpr(E, [V](const clang::Expr *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    return Ref && Ref->getDecl() == V;
  });
}

} // namespace kopt::transform
