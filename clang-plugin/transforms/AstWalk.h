// Small AST queries the transforms share.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
} // namespace clang

namespace kopt::transform {

// Calls Fn on Root and every statement under it, parents first.
void forEachStmt(const clang::Stmt *Root, llvm::function_ref<void(const clang::Stmt *)> Fn);

// The statement S is a direct child of; null at the top, and where S belongs
// to a declaration (a variable's initializer).
const clang::Stmt *parentOf(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace kopt::transform
