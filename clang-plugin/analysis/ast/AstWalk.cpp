#include "clang-plugin/analysis/ast/AstWalk.h"

#include "clang-plugin/analysis/IndexAnalysis.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/FoldingSet.h>

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

const clang::Stmt *parentPastParensAndCasts(const clang::Stmt *S, clang::ASTContext &Ctx) {
  const clang::Stmt *Up = parentOf(S, Ctx);
  while (Up && llvm::isa<clang::ImplicitCastExpr, clang::ParenExpr>(Up))
    Up = parentOf(Up, Ctx);
  return Up;
}

const clang::VarDecl *namedVariable(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
}

std::set<const clang::VarDecl *> changedVariables(const clang::Stmt *S) {
  std::set<const clang::VarDecl *> Out;
  forEachStmt(S, [&](const clang::Stmt *X) {
    const clang::Expr *Target = nullptr;
    if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(X); B && B->isAssignmentOp())
      Target = B->getLHS();
    else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X);
             Un && (Un->isIncrementDecrementOp() || Un->getOpcode() == clang::UO_AddrOf))
      Target = Un->getSubExpr();
    if (const clang::VarDecl *V = Target ? namedVariable(Target) : nullptr)
      Out.insert(V);
  });
  return Out;
}

bool computesOnly(const clang::Expr *E) {
  bool Pure = true;
  forEachStmt(E, [&](const clang::Stmt *X) {
    if (llvm::isa<clang::ArraySubscriptExpr, clang::CallExpr>(X))
      Pure = false;
    else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X))
      Pure = Pure && Un->getOpcode() != clang::UO_Deref && !Un->isIncrementDecrementOp();
    else if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(X))
      Pure = Pure && !B->isAssignmentOp();
    else if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(X))
      Pure = Pure && !M->isArrow();
  });
  return Pure;
}

bool sameExpr(const clang::Expr &A, const clang::Expr &B, const clang::ASTContext &Ctx) {
  llvm::FoldingSetNodeID IdA, IdB;
  A.IgnoreParenImpCasts()->Profile(IdA, Ctx, /*Canonical=*/true);
  B.IgnoreParenImpCasts()->Profile(IdB, Ctx, /*Canonical=*/true);
  return IdA == IdB;
}

bool hasEffects(const clang::Expr *E, const clang::ASTContext &Ctx) {
  if (frontend::asIndexBuiltin(E))
    return false;
  bool Geometry = false;
  forEachStmt(E, [&](const clang::Stmt *S) {
    if (const auto *X = llvm::dyn_cast<clang::Expr>(S))
      Geometry |= frontend::asIndexBuiltin(X).has_value();
  });
  if (!Geometry)
    return E->HasSideEffects(Ctx);
  // Operators over the geometry: only their operands may have effects.
  const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E);
  const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(E);
  bool Operator = (Bin && !Bin->isAssignmentOp()) || (Un && !Un->isIncrementDecrementOp()) ||
                  llvm::isa<clang::ParenExpr, clang::CastExpr, clang::ConditionalOperator>(E);
  if (!Operator)
    return true;
  for (const clang::Stmt *Child : E->children())
    if (const auto *X = llvm::dyn_cast_or_null<clang::Expr>(Child); X && hasEffects(X, Ctx))
      return true;
  return false;
}

std::string calleeName(const clang::CallExpr &Call) {
  if (const clang::FunctionDecl *FD = Call.getDirectCallee())
    return FD->getDeclName().isIdentifier() ? FD->getName().str() : "";
  const clang::Expr *Callee = Call.getCallee()->IgnoreParenImpCasts();
  if (const auto *Overloads = llvm::dyn_cast<clang::OverloadExpr>(Callee))
    return Overloads->getName().getAsString();
  if (const auto *Member = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(Callee))
    return Member->getMember().getAsString();
  return "";
}

} // namespace kopt::transform
