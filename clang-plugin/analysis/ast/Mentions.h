// Whether an expression or statement names a variable: the one query the
// analyses and transforms ask, syntactically (a use under S) or by value
// (E or a local whose initializer E reads).
#pragma once

namespace clang {
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace kopt::transform {

// Whether S names V (a DeclRefExpr under S).
bool mentions(const clang::Stmt *S, const clang::VarDecl *V);
// How often S names V.
unsigned countRefs(const clang::Stmt *S, const clang::VarDecl *V);
// Whether E's value may read V: E names V, or names a local variable whose
// initializer does (followed a few levels deep, as frontend::anySubExpr).
bool mentionsThroughLocals(const clang::Expr *E, const clang::VarDecl *V);

} // namespace kopt::transform
