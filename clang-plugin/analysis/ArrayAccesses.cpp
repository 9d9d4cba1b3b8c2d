#include "clang-plugin/analysis/ArrayAccesses.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/Stmt.h>

namespace kopt::frontend {

namespace {
const clang::Stmt *parent(const clang::Stmt *S, clang::ASTContext &Ctx) {
  clang::DynTypedNodeList Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<clang::Stmt>();
}

template <class Fn> void walk(const clang::Stmt *S, Fn &&F) {
  if (!S)
    return;
  F(S);
  for (const clang::Stmt *Child : S->children())
    walk(Child, F);
}

ArrayAccess classify(const clang::DeclRefExpr *Ref, const clang::ParmVarDecl *P,
                     clang::ASTContext &Ctx) {
  ArrayAccess A{P, Ref, {}};
  const clang::Expr *E = Ref;
  for (;;) {
    const clang::Stmt *Up = parent(E, Ctx);
    if (const auto *Cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(Up);
        Cast && (E->getType()->isPointerType() || E->getType()->isArrayType())) {
      E = Cast;
      continue;
    }
    const auto *Sub = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(Up);
    if (!Sub || Sub->getBase() != E)
      break;
    A.Levels.push_back(Sub);
    E = Sub;
  }
  const clang::ArraySubscriptExpr *Top = A.top();
  if (!Top || !Top->getType()->isArithmeticType()) {
    A.Levels.clear();
    A.Read = A.Write = true;
    return A;
  }
  // An lvalue passes through parentheses and the branches of a conditional
  // (c ? t : A[i]) before it is read or written.
  const clang::Expr *Value = Top;
  const clang::Stmt *Up = parent(Top, Ctx);
  for (;;) {
    const auto *Cond = llvm::dyn_cast_or_null<clang::ConditionalOperator>(Up);
    if (!llvm::isa_and_nonnull<clang::ParenExpr>(Up) && (!Cond || Cond->getCond() == Value))
      break;
    Value = llvm::cast<clang::Expr>(Up);
    Up = parent(Up, Ctx);
  }
  if (const auto *Cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(Up);
      Cast && Cast->getCastKind() == clang::CK_LValueToRValue) {
    A.Read = true;
  } else if (const auto *Bin = llvm::dyn_cast_or_null<clang::BinaryOperator>(Up);
             Bin && Bin->isAssignmentOp() && Bin->getLHS() == Value) {
    A.Write = true;
    A.Read = Bin->isCompoundAssignmentOp();
  } else {
    A.Read = A.Write = true; // ++, &A[i], a reference.
  }
  return A;
}

bool leavesEarly(const clang::Stmt *S) {
  bool Found = false;
  walk(S, [&](const clang::Stmt *St) {
    Found |=
        llvm::isa<clang::ReturnStmt, clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt>(St);
  });
  return Found;
}

bool writes(const clang::Stmt *S, const clang::VarDecl *V, clang::ASTContext &Ctx) {
  bool Found = false;
  walk(S, [&](const clang::Stmt *St) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St);
    if (!Ref || Ref->getDecl() != V)
      return;
    const clang::Stmt *Up = parent(Ref, Ctx);
    while (llvm::isa_and_nonnull<clang::ParenExpr>(Up))
      Up = parent(Up, Ctx);
    const auto *Cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(Up);
    Found |= !Cast || Cast->getCastKind() != clang::CK_LValueToRValue;
  });
  return Found;
}

std::optional<int64_t> constant(const clang::Expr *E, clang::ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
  if (!V || V->getSignificantBits() > 32)
    return std::nullopt;
  return V->getExtValue();
}

bool stepsByOne(const clang::Expr *Inc, const clang::VarDecl *V, clang::ASTContext &Ctx) {
  Inc = Inc ? Inc->IgnoreParenImpCasts() : nullptr;
  auto Names = [&](const clang::Expr *E) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == V;
  };
  if (const auto *Un = llvm::dyn_cast_or_null<clang::UnaryOperator>(Inc))
    return Un->isIncrementOp() && Names(Un->getSubExpr());
  if (const auto *Bin = llvm::dyn_cast_or_null<clang::BinaryOperator>(Inc))
    return Bin->getOpcode() == clang::BO_AddAssign && Names(Bin->getLHS()) &&
           constant(Bin->getRHS(), Ctx) == 1;
  return false;
}
} // namespace

std::vector<ArrayAccess> pointerParamAccesses(const clang::FunctionDecl &Kernel,
                                              clang::ASTContext &Ctx) {
  std::vector<ArrayAccess> Out;
  walk(Kernel.getBody(), [&](const clang::Stmt *St) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St);
    const auto *P = Ref ? llvm::dyn_cast<clang::ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (P && P->getType()->isPointerType())
      Out.push_back(classify(Ref, P, Ctx));
  });
  return Out;
}

llvm::Expected<IndexPoly> linearIndex(const ArrayAccess &A, IndexPolyBuilder &B,
                                      clang::ASTContext &Ctx) {
  IndexPoly Lin;
  for (size_t L = 0; L < A.Levels.size(); ++L) {
    if (L > 0) {
      const clang::ConstantArrayType *T = Ctx.getAsConstantArrayType(A.Levels[L - 1]->getType());
      if (!T)
        return B.error(A.Levels[L]->getBeginLoc(), "a subscript of an array without a fixed size");
      Lin = Lin * IndexPoly::constant(int64_t(T->getSize().getZExtValue()));
    }
    llvm::Expected<IndexPoly> Idx = B.build(A.Levels[L]->getIdx());
    if (!Idx)
      return Idx.takeError();
    Lin = Lin + *Idx;
  }
  return Lin;
}

std::map<const clang::VarDecl *, std::pair<int64_t, int64_t>>
literalLoops(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx, int64_t MaxTrip) {
  std::map<const clang::VarDecl *, std::pair<int64_t, int64_t>> Out;
  walk(Kernel.getBody(), [&](const clang::Stmt *St) {
    const auto *For = llvm::dyn_cast<clang::ForStmt>(St);
    const auto *Init = For ? llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit()) : nullptr;
    if (!Init || !Init->isSingleDecl())
      return;
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl());
    const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
        For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!V || !V->getType()->isIntegerType() || !Cond ||
        (Cond->getOpcode() != clang::BO_LT && Cond->getOpcode() != clang::BO_LE))
      return;
    const auto *Left = llvm::dyn_cast<clang::DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
    std::optional<int64_t> Lo = constant(V->getInit(), Ctx);
    std::optional<int64_t> Bound = constant(Cond->getRHS(), Ctx);
    if (!Left || Left->getDecl() != V || !Lo || !Bound || !stepsByOne(For->getInc(), V, Ctx))
      return;
    int64_t Hi = *Bound - (Cond->getOpcode() == clang::BO_LT ? 1 : 0);
    if (Hi < *Lo || Hi - *Lo + 1 > MaxTrip || leavesEarly(For->getBody()) ||
        writes(For->getBody(), V, Ctx))
      return;
    Out[V] = {*Lo, Hi};
  });
  return Out;
}

} // namespace kopt::frontend
