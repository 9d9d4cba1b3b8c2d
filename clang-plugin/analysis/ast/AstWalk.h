// Small AST queries the transforms share.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

#include <set>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace kopt::transform {

// Calls Fn on Root and every statement under it, parents first.
void forEachStmt(const clang::Stmt *Root, llvm::function_ref<void(const clang::Stmt *)> Fn);

// The statement S is a direct child of; null at the top, and where S belongs
// to a declaration (a variable's initializer).
const clang::Stmt *parentOf(const clang::Stmt *S, clang::ASTContext &Ctx);

// The first statement above S that is not a parenthesis or an implicit cast
// (what an expression is an operand of); null where parentOf gives none.
const clang::Stmt *parentPastParensAndCasts(const clang::Stmt *S, clang::ASTContext &Ctx);

// The variable E names (parentheses and implicit casts looked through), or null.
const clang::VarDecl *namedVariable(const clang::Expr *E);

// The variables S assigns, increments or decrements, or takes the address of.
std::set<const clang::VarDecl *> changedVariables(const clang::Stmt *S);

// Whether E only computes: it reads no memory (subscript, dereference, arrow),
// calls nothing and assigns nothing.
bool computesOnly(const clang::Expr *E);

// Whether A and B are the same expression, parentheses and implicit casts
// aside (clang's canonical profile: the same operators over the same
// declarations and literals).
bool sameExpr(const clang::Expr &A, const clang::Expr &B, const clang::ASTContext &Ctx);

// Whether evaluating E may change anything: clang's HasSideEffects, except
// that the thread geometry (threadIdx.x, ...: property getters in clang's CUDA
// headers, calls to clang) only reads.
bool hasEffects(const clang::Expr *E, const clang::ASTContext &Ctx);

// The callee's name as the kernel wrote it, also for calls a template leaves
// unresolved; "" for an operator or a call through a pointer.
std::string calleeName(const clang::CallExpr &Call);

} // namespace kopt::transform
