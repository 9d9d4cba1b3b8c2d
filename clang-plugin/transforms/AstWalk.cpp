#include "clang-plugin/transforms/AstWalk.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/Stmt.h>

namespace kopt::transform {

void forEachStmt(const clang::Stmt *Root, llvm::function_ref<void(const clang::Stmt *)> Fn) {
  if (!Root)
    return;
  Fn(Root);
  for (const clang::Stmt *Child : Root->children())
    forEachStmt(Child, Fn);
}

const clang::Stmt *parentOf(const clang::Stmt *S, clang::ASTContext &Ctx) {
  clang::DynTypedNodeList Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<clang::Stmt>();
}

} // namespace kopt::transform
