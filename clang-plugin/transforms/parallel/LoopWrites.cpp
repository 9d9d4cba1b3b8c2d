#include "clang-plugin/transforms/parallel/LoopWrites.h"

#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

namespace kopt::transform {

const clang::VarDecl *varOf(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
}

Write targetOf(const clang::Expr *Lhs) {
  Write W;
  W.At = Lhs;
  const clang::Expr *E = Lhs->IgnoreParenImpCasts();
  if (const clang::VarDecl *V = varOf(E)) {
    W.Var = V;
    // A __device__ or static variable is memory all threads share.
    W.Memory = V->getType()->isReferenceType() || V->hasGlobalStorage();
    return W;
  }
  if (const auto *Member = llvm::dyn_cast<clang::MemberExpr>(E); Member && !Member->isArrow())
    return targetOf(Member->getBase());
  if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
    std::optional<Subscripted> S = subscripted(Sub);
    const clang::VarDecl *V = S ? S->Base : nullptr;
    if (V && V->getType()->isArrayType() && !V->hasGlobalStorage()) { // A local array.
      W.Var = V;
      return W;
    }
    W.Memory = true;
    if (V && V->getType()->isPointerType()) {
      W.Var = V;
      W.Subscript = Sub;
    }
    return W;
  }
  W.Memory = true;
  return W;
}

std::optional<Subscripted> subscripted(const clang::Expr *E) {
  Subscripted S;
  E = E->IgnoreParenImpCasts();
  while (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
    S.Indices.insert(S.Indices.begin(), Sub->getIdx());
    E = Sub->getBase()->IgnoreParenImpCasts();
  }
  S.Base = varOf(E);
  if (!S.Base || S.Indices.empty())
    return std::nullopt;
  return S;
}

std::string indexText(const UnitAST &U, const Subscripted &S) {
  std::string Out;
  for (const clang::Expr *I : S.Indices) {
    std::string T = U.text(I->getSourceRange());
    if (T.empty())
      return "";
    Out += (Out.empty() ? "" : "][") + T;
  }
  return Out;
}

llvm::Expected<std::vector<Write>> writesIn(const UnitAST &U, const clang::Stmt *S) {
  std::vector<Write> Writes;
  std::optional<clang::SourceLocation> Bad;
  std::string Why;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X)) {
      if (Bin->isAssignmentOp())
        Writes.push_back(targetOf(Bin->getLHS()));
    } else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X)) {
      if (Un->isIncrementDecrementOp())
        Writes.push_back(targetOf(Un->getSubExpr()));
      else if (Un->getOpcode() == clang::UO_AddrOf && !Bad) {
        Bad = Un->getBeginLoc();
        Why = "the kernel takes an address";
      }
    } else if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(X)) {
      StmtContents C = inspectStmt(*Call);
      if (C.Atomic) {
        Write W;
        W.Memory = true;
        W.At = Call;
        Writes.push_back(W);
      }
      if ((C.UserCall || C.Barrier || C.WarpIntrinsic) && !Bad) {
        Bad = Call->getBeginLoc();
        Why = "a call this transform cannot see through";
      }
    }
  });
  if (Bad)
    return unsupported(U, *Bad, Why);
  return Writes;
}

bool containsLoop(const clang::Stmt *S) {
  bool Found = false;
  forEachStmt(S, [&](const clang::Stmt *X) {
    Found |= llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(X);
  });
  return Found;
}

std::vector<const clang::ForStmt *> outerLoops(const UnitAST &U) {
  std::vector<const clang::ForStmt *> Out;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
    const auto *For = llvm::dyn_cast<clang::ForStmt>(X);
    if (!For)
      return;
    for (const clang::Stmt *Up = parentOf(For, U.Ctx); Up; Up = parentOf(Up, U.Ctx))
      if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(Up))
        return;
    Out.push_back(For);
  });
  return Out;
}

bool readsMemory(const clang::Stmt *S) {
  bool Found = false;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X))
      Found |= Un->getOpcode() == clang::UO_Deref;
    else if (const auto *Member = llvm::dyn_cast<clang::MemberExpr>(X))
      Found |= Member->isArrow();
    else
      Found |= llvm::isa<clang::ArraySubscriptExpr>(X);
  });
  return Found;
}

std::set<const clang::VarDecl *> declaredIn(const clang::Stmt *S) {
  std::set<const clang::VarDecl *> Vars;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(X))
      for (const clang::Decl *D : Decl->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D))
          Vars.insert(V);
  });
  return Vars;
}

std::set<const clang::VarDecl *> pointersIn(const clang::Stmt *S) {
  std::set<const clang::VarDecl *> Vars;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X))
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
          V && V->getType()->isPointerType())
        Vars.insert(V);
  });
  return Vars;
}

namespace {
std::set<const clang::VarDecl *> rootsAt(const clang::VarDecl *V, unsigned Depth) {
  if (llvm::isa<clang::ParmVarDecl>(V) || !V->getInit() || Depth > 8)
    return {V};
  std::set<const clang::VarDecl *> Out;
  for (const clang::VarDecl *P : pointersIn(V->getInit()))
    if (P != V)
      for (const clang::VarDecl *R : rootsAt(P, Depth + 1))
        Out.insert(R);
  if (Out.empty())
    Out.insert(V);
  return Out;
}
} // namespace

std::set<const clang::VarDecl *> pointerRoots(const clang::VarDecl *V) { return rootsAt(V, 0); }

bool isVarRef(const clang::Expr *E, const clang::VarDecl *V) {
  E = E->IgnoreParens();
  while (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(E)) {
    if (!Cast->getType()->isIntegerType())
      return false;
    E = Cast->getSubExpr()->IgnoreParens();
  }
  return varOf(E) == V;
}

bool shuffleType(clang::QualType T) {
  const auto *B = T.getCanonicalType()->getAs<clang::BuiltinType>();
  if (!B)
    return false;
  switch (B->getKind()) {
  case clang::BuiltinType::Int:
  case clang::BuiltinType::UInt:
  case clang::BuiltinType::Long:
  case clang::BuiltinType::ULong:
  case clang::BuiltinType::LongLong:
  case clang::BuiltinType::ULongLong:
  case clang::BuiltinType::Float:
  case clang::BuiltinType::Double:
    return true;
  default:
    return false;
  }
}

std::optional<FoldUpdate> foldUpdate(const UnitAST &U, const clang::BinaryOperator &Bin,
                                     llvm::function_ref<bool(const clang::Expr *)> IsTarget) {
  auto Names = [&](const clang::Expr *E) {
    bool Found = false;
    forEachStmt(E, [&](const clang::Stmt *X) {
      if (const auto *Sub = llvm::dyn_cast<clang::Expr>(X))
        Found |= IsTarget(Sub);
    });
    return Found;
  };
  if (!IsTarget(Bin.getLHS()))
    return std::nullopt;
  FoldUpdate F;
  F.Update = &Bin;
  if (Bin.getOpcode() == clang::BO_AddAssign || Bin.getOpcode() == clang::BO_SubAssign) {
    if (Names(Bin.getRHS()))
      return std::nullopt;
    F.Refs = 1;
    return F;
  }
  if (Bin.getOpcode() != clang::BO_Assign)
    return std::nullopt;
  const clang::Expr *Rhs = Bin.getRHS()->IgnoreParenImpCasts();
  if (const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(Rhs);
      Add && Add->getOpcode() == clang::BO_Add) {
    const clang::Expr *A = Add->getLHS(), *B = Add->getRHS();
    if ((IsTarget(A) && !Names(B)) || (IsTarget(B) && !Names(A))) {
      F.Refs = 2;
      return F;
    }
    return std::nullopt;
  }
  const auto *Call = llvm::dyn_cast<clang::CallExpr>(Rhs);
  if (!Call || Call->getNumArgs() != 2 || !Call->getDirectCallee() ||
      !Call->getDirectCallee()->getDeclName().isIdentifier())
    return std::nullopt;
  llvm::StringRef Name = Call->getDirectCallee()->getName();
  if (Name == "fmaxf" || Name == "fmax" || Name == "max")
    F.How.Op = Fold::Max;
  else if (Name == "fminf" || Name == "fmin" || Name == "min")
    F.How.Op = Fold::Min;
  else
    return std::nullopt;
  const clang::Expr *A = Call->getArg(0), *B = Call->getArg(1);
  if (!(IsTarget(A) && !Names(B)) && !(IsTarget(B) && !Names(A)))
    return std::nullopt;
  llvm::Expected<std::string> Callee = exprText(U, *Call->getCallee());
  if (!Callee) {
    llvm::consumeError(Callee.takeError());
    return std::nullopt;
  }
  F.How.Combine = *Callee;
  F.Refs = 2;
  return F;
}

std::optional<VarFolds> foldsOf(const UnitAST &U, const clang::Stmt *S, const clang::VarDecl *V,
                                bool Counts) {
  std::optional<Fold> How;
  unsigned Refs = 0;
  bool Bad = false;
  auto IsV = [&](const clang::Expr *E) { return varOf(E) == V; };
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X)) {
      if (!Un->isIncrementDecrementOp() || varOf(Un->getSubExpr()) != V)
        return;
      // n++ as a statement of its own sums ones (n-- minus ones).
      const clang::Stmt *Parent = parentOf(Un, U.Ctx);
      if (!Counts || !V->getType()->isIntegerType() || !Parent || llvm::isa<clang::Expr>(Parent) ||
          (How && !(*How == Fold{}))) {
        Bad = true;
        return;
      }
      How = Fold{};
      Refs += 1;
      return;
    }
    const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X);
    if (!Bin || !Bin->isAssignmentOp() || targetOf(Bin->getLHS()).Var != V)
      return;
    std::optional<FoldUpdate> One = foldUpdate(U, *Bin, IsV);
    const clang::Stmt *Parent = parentOf(Bin, U.Ctx);
    if (!One || !Parent || llvm::isa<clang::Expr>(Parent) || (How && !(*How == One->How))) {
      Bad = true;
      return;
    }
    How = One->How;
    Refs += One->Refs;
  });
  if (Bad || !How)
    return std::nullopt;
  return VarFolds{*How, Refs};
}

std::optional<LoopCounter> loopCounter(const clang::ForStmt &For, const UnitAST &U) {
  if (std::optional<CountedLoop> L = countedLoop(For, U))
    return LoopCounter{L->Var, L->Init, L->Bound, L->Comparison, true};
  const auto *Init = llvm::dyn_cast_or_null<clang::BinaryOperator>(For.getInit());
  if (!Init || Init->getOpcode() != clang::BO_Assign)
    return std::nullopt;
  const clang::VarDecl *V = varOf(Init->getLHS());
  if (!V || !V->isLocalVarDecl() || V->getType()->isReferenceType() || mentions(Init->getRHS(), V))
    return std::nullopt;
  std::optional<CountedLoop> L = countedLoopWith(For, U, V, Init->getRHS());
  if (!L)
    return std::nullopt;
  return LoopCounter{L->Var, L->Init, L->Bound, L->Comparison, false};
}

llvm::Error checkCounterDead(const UnitAST &U, const LoopCounter &L) {
  if (L.Declared)
    return llvm::Error::success();
  // The for loops that assign the counter in their init: their uses are theirs.
  std::vector<const clang::ForStmt *> Owners;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
    const auto *Other = llvm::dyn_cast<clang::ForStmt>(X);
    const auto *Init =
        Other ? llvm::dyn_cast_or_null<clang::BinaryOperator>(Other->getInit()) : nullptr;
    if (Init && Init->getOpcode() == clang::BO_Assign && varOf(Init->getLHS()) == L.Var &&
        !mentions(Init->getRHS(), L.Var))
      Owners.push_back(Other);
  });
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  auto Inside = [&](const clang::Stmt *Ref, const clang::ForStmt *Loop) {
    return !SM.isBeforeInTranslationUnit(Ref->getBeginLoc(), Loop->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(Loop->getEndLoc(), Ref->getBeginLoc());
  };
  std::optional<clang::SourceLocation> Stray;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X);
    if (!Ref || Ref->getDecl() != L.Var || Stray)
      return;
    bool Owned = false;
    for (const clang::ForStmt *Loop : Owners)
      Owned |= Inside(Ref, Loop);
    if (!Owned)
      Stray = Ref->getBeginLoc();
  });
  if (Stray)
    return unsupported(U, *Stray,
                       "'" + L.Var->getName() + "' is read where the loop's final value may reach");
  return llvm::Error::success();
}

} // namespace kopt::transform
