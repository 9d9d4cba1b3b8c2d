#include "clang-plugin/analysis/LocalArrays.h"

#include "clang-plugin/analysis/ast/AstWalk.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <set>

namespace kopt::frontend {

namespace {

bool isConstant(const clang::Expr *E, const clang::ASTContext &Ctx) {
  // A template's value-dependent bound is a constant of each instantiation.
  return E->isValueDependent() || E->isIntegerConstantExpr(Ctx);
}

// Counters of loops nvcc can unroll fully: for (int v = C0; v CMP C1; ...).
std::set<const clang::VarDecl *> constantBoundCounters(const clang::Stmt *Body,
                                                       const clang::ASTContext &Ctx) {
  std::set<const clang::VarDecl *> Counters;
  transform::forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *For = llvm::dyn_cast<clang::ForStmt>(S);
    if (!For)
      return;
    const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit());
    const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(For->getCond());
    if (!Init || !Init->isSingleDecl() || !Cond || !Cond->isComparisonOp())
      return;
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl());
    if (!V || !V->getInit() || !isConstant(V->getInit(), Ctx))
      return;
    const clang::Expr *L = Cond->getLHS(), *R = Cond->getRHS();
    if ((transform::namedVariable(L) == V && isConstant(R, Ctx)) ||
        (transform::namedVariable(R) == V && isConstant(L, Ctx)))
      Counters.insert(V);
  });
  return Counters;
}

// An index nvcc resolves at compile time once it unrolls: arithmetic on
// constants and constant-bound counters only.
bool staticIndex(const clang::Expr *E, const std::set<const clang::VarDecl *> &Counters,
                 const clang::ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (isConstant(E, Ctx))
    return true;
  if (const clang::VarDecl *V = transform::namedVariable(E))
    return Counters.count(V) > 0;
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E))
    return (B->isAdditiveOp() || B->isMultiplicativeOp() || B->isShiftOp()) &&
           staticIndex(B->getLHS(), Counters, Ctx) && staticIndex(B->getRHS(), Counters, Ctx);
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E))
    return (U->getOpcode() == clang::UO_Minus || U->getOpcode() == clang::UO_Plus) &&
           staticIndex(U->getSubExpr(), Counters, Ctx);
  return false;
}

bool isLocalArray(const clang::VarDecl &V, const clang::ASTContext &Ctx) {
  if (!V.hasLocalStorage() || V.isStaticLocal() || V.hasAttr<clang::CUDASharedAttr>() ||
      V.hasAttr<clang::CUDAConstantAttr>())
    return false;
  const clang::ConstantArrayType *A = Ctx.getAsConstantArrayType(V.getType());
  return A && A->getElementType()->isArithmeticType() && !A->getElementType()->isArrayType() &&
         !V.getType().isVolatileQualified();
}

} // namespace

std::vector<LocalArrayUses> findLocalArrays(const clang::FunctionDecl &Kernel,
                                            clang::ASTContext &Ctx) {
  std::vector<LocalArrayUses> Arrays;
  const clang::Stmt *Body = Kernel.getBody();
  if (!Body)
    return Arrays;
  transform::forEachStmt(Body, [&](const clang::Stmt *S) {
    if (const auto *D = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *Each : D->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Each); V && isLocalArray(*V, Ctx))
          Arrays.push_back({V, D, {}, nullptr, false});
  });
  if (Arrays.empty())
    return Arrays;
  const std::set<const clang::VarDecl *> Counters = constantBoundCounters(Body, Ctx);
  transform::forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    if (!Ref)
      return;
    for (LocalArrayUses &A : Arrays) {
      if (Ref->getDecl() != A.Array)
        continue;
      const clang::Stmt *Parent = transform::parentPastParensAndCasts(Ref, Ctx);
      const auto *Sub = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(Parent);
      if (Sub && Sub->getBase()->IgnoreParenImpCasts() == Ref) {
        A.Subscripts.push_back(Sub);
        A.DataIndexed |= !staticIndex(Sub->getIdx(), Counters, Ctx);
      } else if (!A.OtherUse) {
        A.OtherUse = Parent ? Parent : Ref;
      }
    }
  });
  return Arrays;
}

std::vector<LocalArray> summarizeLocalArrays(const clang::FunctionDecl &Kernel,
                                             clang::ASTContext &Ctx) {
  std::vector<LocalArray> Out;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const LocalArrayUses &A : findLocalArrays(Kernel, Ctx)) {
    const clang::ConstantArrayType *T = Ctx.getAsConstantArrayType(A.Array->getType());
    LocalArray L;
    L.Name = A.Array->getNameAsString();
    L.Element = T->getElementType().getAsString();
    L.Elements = T->getSize().getZExtValue();
    L.Bytes = L.Elements * uint64_t(Ctx.getTypeSizeInChars(T->getElementType()).getQuantity());
    L.DataIndexed = A.DataIndexed;
    clang::SourceLocation At = SM.getExpansionLoc(A.Array->getLocation());
    L.Line = SM.getExpansionLineNumber(At);
    L.Column = SM.getExpansionColumnNumber(At);
    Out.push_back(std::move(L));
  }
  return Out;
}

} // namespace kopt::frontend
