#include "clang-plugin/transforms/parallel/LoopIndependence.h"

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GuardHoisting.h"
#include "clang-plugin/transforms/parallel/LoopWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <map>

namespace kopt::transform {

llvm::Expected<std::vector<const clang::Expr *>> xPositions(const UnitAST &U) {
  if (U.Kernel.hasAttr<clang::CUDALaunchBoundsAttr>())
    return llvm::createStringError("the kernel has __launch_bounds__");
  std::vector<PositionSum> Sums;
  if (llvm::Error E = checkGlobalIndexForm(U, "x", /*AllowBlockZ=*/true, &Sums))
    return E;
  std::vector<const clang::Expr *> Positions;
  for (const PositionSum &S : Sums)
    Positions.push_back(S.Sum);
  return Positions;
}

AccessIndexer::AccessIndexer(const UnitAST &AST, llvm::ArrayRef<const clang::Expr *> Positions)
    : U(AST), PositionSums(Positions.begin(), Positions.end()) {
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
    const clang::Expr *Target = nullptr;
    if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X); Bin && Bin->isAssignmentOp())
      Target = Bin->getLHS();
    else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X);
             Un && (Un->isIncrementDecrementOp() || Un->getOpcode() == clang::UO_AddrOf))
      Target = Un->getSubExpr();
    if (const clang::VarDecl *V = Target ? varOf(Target) : nullptr)
      Assigned.insert(V);
  });
}

// A local that holds an index stands for its initializer where neither it nor
// what the initializer reads changes while it lives: variables that never
// change, and counters of the for loops around its declaration (it is
// declared afresh each iteration).
const clang::Expr *AccessIndexer::valueOf(const clang::VarDecl *V) const {
  if (!V->isLocalVarDecl() || !V->getInit() || Assigned.count(V) || !V->getType()->isIntegerType())
    return nullptr;
  std::set<const clang::VarDecl *> Counters;
  // The for loops whose body holds V's declaration.
  const clang::Stmt *Decl = nullptr;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
    if (const auto *D = llvm::dyn_cast<clang::DeclStmt>(X))
      for (const clang::Decl *Each : D->decls())
        if (Each == V)
          Decl = D;
  });
  for (const clang::Stmt *Cur = Decl; Cur;) {
    const clang::Stmt *Up = parentOf(Cur, U.Ctx);
    if (const auto *For = llvm::dyn_cast_or_null<clang::ForStmt>(Up); For && For->getBody() == Cur)
      if (std::optional<LoopCounter> L = loopCounter(*For, U))
        Counters.insert(L->Var);
    Cur = Up;
  }
  bool Stable = true;
  forEachStmt(V->getInit(), [&](const clang::Stmt *X) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X);
    const auto *W = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (W && Assigned.count(W) && !Counters.count(W))
      Stable = false;
    if (llvm::isa<clang::CallExpr, clang::ArraySubscriptExpr>(X))
      Stable = false;
  });
  return Stable ? V->getInit() : nullptr;
}

std::optional<Linear> AccessIndexer::linear(const clang::Expr *E) const {
  return linearize(E, U.Ctx, [this](const clang::VarDecl *V) { return valueOf(V); });
}

std::vector<IndexedAccess> AccessIndexer::accessesIn(const clang::Stmt *S) const {
  std::vector<IndexedAccess> Out;
  std::set<const clang::Expr *> Written, ReadWritten;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X); Bin && Bin->isAssignmentOp())
      (Bin->isCompoundAssignmentOp() ? ReadWritten : Written)
          .insert(Bin->getLHS()->IgnoreParenImpCasts());
    if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X);
        Un && Un->isIncrementDecrementOp())
      ReadWritten.insert(Un->getSubExpr()->IgnoreParenImpCasts());
  });
  forEachStmt(S, [&](const clang::Stmt *X) {
    const auto *E = llvm::dyn_cast<clang::Expr>(X);
    if (!E || !llvm::isa<clang::ArraySubscriptExpr, clang::UnaryOperator>(E))
      return;
    if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(E);
        Un && Un->getOpcode() != clang::UO_Deref)
      return;
    // Only the whole p[i][k], not its p[i].
    if (const auto *Outer =
            llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parentPastParensAndCasts(E, U.Ctx));
        Outer && Outer->getBase()->IgnoreParenImpCasts() == E)
      return;
    IndexedAccess A;
    A.At = E;
    A.Write = Written.count(E) || ReadWritten.count(E);
    A.Read = !Written.count(E);
    std::optional<Subscripted> Sub = subscripted(E);
    if (Sub && Sub->Base->getType()->isArrayType() && !Sub->Base->hasGlobalStorage())
      return; // A local array: the thread's own.
    const clang::Expr *Pointer = Sub ? nullptr : llvm::cast<clang::UnaryOperator>(E)->getSubExpr();
    if (Sub) {
      // The pointer p[...] starts from, with what a local pointer adds.
      const clang::Expr *Base = E;
      for (size_t I = 0; I < Sub->Indices.size(); ++I)
        Base = llvm::cast<clang::ArraySubscriptExpr>(Base->IgnoreParenImpCasts())
                   ->getBase()
                   ->IgnoreParenImpCasts();
      Pointer = Base;
    }
    std::optional<frontend::PointerBase> Root = frontend::resolvePointerParam(Pointer);
    A.Root = Root ? static_cast<const clang::VarDecl *>(Root->Param)
                  : (Sub ? Sub->Base : varOf(Pointer));
    if (!Sub || !Root) {
      Out.push_back(A);
      return;
    }
    std::vector<Linear> Index;
    for (const clang::Expr *I : Sub->Indices) {
      std::optional<Linear> L = linear(I);
      if (!L)
        return Out.push_back(A);
      Index.push_back(*L);
    }
    Linear Offset;
    for (const frontend::IndexTerm &O : Root->Offsets) { // Pointer arithmetic: scale 1.
      std::optional<Linear> L = linear(O.Expr);
      if (!L)
        return Out.push_back(A);
      Offset = Offset + *L;
    }
    if (!Offset.terms().empty() && Index.size() != 1)
      return Out.push_back(A); // An offset pointer to arrays: not followed.
    if (Index.size() == 1)
      Index[0] = Index[0] + Offset;
    A.Index = std::move(Index);
    Out.push_back(A);
  });
  return Out;
}

void AccessIndexer::addBound(Ranges &R, const clang::Expr *Cond, bool Exit) const {
  const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!Bin || !Bin->isComparisonOp())
    return;
  clang::BinaryOperatorKind Op = Bin->getOpcode();
  const clang::VarDecl *X = varOf(Bin->getLHS());
  const clang::Expr *Other = Bin->getRHS();
  if (!X || Assigned.count(X)) {
    X = varOf(Bin->getRHS());
    Other = Bin->getLHS();
    Op = clang::BinaryOperator::reverseComparisonOp(Op);
  }
  if (!X || Assigned.count(X))
    return;
  std::optional<Linear> B = linear(Other);
  if (!B)
    return;
  if (Exit) // The thread goes on where the comparison fails.
    Op = clang::BinaryOperator::negateComparisonOp(Op);
  Linear One = Linear::constant(1);
  switch (Op) {
  case clang::BO_LT:
    return R.addUpper(X, *B);
  case clang::BO_LE:
    return R.addUpper(X, *B + One);
  case clang::BO_GT:
    return R.addLower(X, *B + One);
  case clang::BO_GE:
    return R.addLower(X, *B);
  default:
    return;
  }
}

std::vector<AccessIndexer::PositionVar> AccessIndexer::positionVars() const {
  std::vector<PositionVar> Out;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
    const auto *D = llvm::dyn_cast<clang::DeclStmt>(X);
    if (!D)
      return;
    for (const clang::Decl *Each : D->decls()) {
      const auto *V = llvm::dyn_cast<clang::VarDecl>(Each);
      if (!V || !V->getInit() || Assigned.count(V) || V->getType()->isReferenceType())
        continue;
      const clang::Expr *Init = V->getInit()->IgnoreParenImpCasts();
      if (PositionSums.count(Init)) {
        Out.push_back({V, nullptr});
        continue;
      }
      const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(Init);
      if (!Add || Add->getOpcode() != clang::BO_Add)
        continue;
      for (int Swap = 0; Swap < 2; ++Swap) {
        const clang::Expr *Sum = (Swap ? Add->getRHS() : Add->getLHS())->IgnoreParenImpCasts();
        const clang::Expr *Added = Swap ? Add->getLHS() : Add->getRHS();
        if (PositionSums.count(Sum) && !frontend::dependsOnThreadIndex(Added))
          Out.push_back({V, Added});
      }
    }
  });
  return Out;
}

Ranges AccessIndexer::rangesAt(const clang::Stmt &S) const {
  Ranges R;
  // Variables set from a thread position: at least the constant added.
  for (const PositionVar &P : positionVars()) {
    std::optional<Linear> C = P.Added ? linear(P.Added) : Linear();
    if (C && C->isConstant())
      R.addLower(P.Var, *C);
  }
  // The checks a thread passed to reach S.
  llvm::Expected<std::vector<PathStep>> Path = pathFromBody(U, S);
  if (!Path) {
    llvm::consumeError(Path.takeError());
    return R;
  }
  for (const PathStep &Step : *Path) {
    if (Step.If) {
      for (const clang::Expr *Part : splitCondition(Step.If->getCond()))
        addBound(R, Part, /*Exit=*/false);
      continue;
    }
    for (const clang::Stmt *Before : Step.Block->body()) {
      if (Before == Step.Child)
        break;
      if (const clang::Expr *Cond = earlyReturnCondition(*Before))
        for (const clang::Expr *Part : splitCondition(Cond, /*Or=*/true))
          addBound(R, Part, /*Exit=*/true);
    }
  }
  return R;
}

namespace {
// The candidates for a row length S in flat indices r * S + c: coefficients
// of 2 or more, and the variables of products (i * n).
std::vector<Linear> strideCandidates(llvm::ArrayRef<const IndexedAccess *> All) {
  std::vector<Linear> Out;
  auto Add = [&](const Linear &L) {
    if (std::find(Out.begin(), Out.end(), L) == Out.end())
      Out.push_back(L);
  };
  for (const IndexedAccess *A : All)
    for (const auto &[M, C] : A->Index.front().terms()) {
      if (std::abs(C) >= 2)
        Add(Linear::constant(std::abs(C)));
      if (M.size() >= 2)
        for (const clang::VarDecl *V : M)
          Add(Linear::atom(V));
    }
  return Out;
}

// L as (r, c) with L = r * S + c: for a number S, the terms it divides go to
// r; for a variable S, the terms it multiplies.
std::pair<Linear, Linear> split(const Linear &L, const Linear &S) {
  Linear Row, Col;
  for (const auto &[M, C] : L.terms()) {
    if (S.isConstant()) {
      // c = q S + r: q m to the row, r m to the column (46 j1 with S = 45 is
      // row j1, column j1).
      int64_t N = S.constantTerm(), Q = C / N, R = C - Q * N;
      if (Q)
        Row.addTerm(M, Q);
      if (R)
        Col.addTerm(M, R);
      continue;
    }
    const clang::VarDecl *V = S.singleAtom().value_or(nullptr);
    auto It = std::find(M.begin(), M.end(), V);
    if (It == M.end()) {
      Col.addTerm(M, C);
      continue;
    }
    Monomial Rest = M;
    Rest.erase(Rest.begin() + (It - M.begin()));
    Row.addTerm(Rest, C);
  }
  return {Row, Col};
}

enum class Meeting { Never, SameIteration, Maybe };

// Whether access A (in iteration a, or once beside the loop) and access B (in
// iteration b != a, or beside) can reach one location.
Meeting meet(const std::vector<Linear> &A, bool AInside, const std::vector<Linear> &B, bool BInside,
             const clang::VarDecl *V, const Ranges &Known) {
  std::optional<Linear> PinA, PinB;
  bool Same = false;
  for (size_t I = 0; I < A.size(); ++I) {
    const Linear &FA = A[I], &FB = B[I];
    int64_t Alpha = AInside ? FA.linearCoefficient(V) : 0,
            Beta = BInside ? FB.linearCoefficient(V) : 0;
    Linear RA = FA.without(V), RB = FB.without(V);
    // V in a product (v * n): nothing to learn from this part.
    if ((AInside && (FA - RA).terms().size() != (Alpha ? 1u : 0u)) ||
        (BInside && (FB - RB).terms().size() != (Beta ? 1u : 0u)))
      continue;
    if (!AInside)
      RA = FA;
    if (!BInside)
      RB = FB;
    Linear Diff = RA - RB;
    if (Alpha == 0 && Beta == 0) {
      // Parts that differ by a nonzero amount keep the accesses apart.
      if (Known.nonNegative(Diff - Linear::constant(1)) ||
          Known.nonNegative(Linear::constant(-1) - Diff))
        return Meeting::Never;
      continue;
    }
    if (Alpha == Beta) {
      if (Diff.terms().empty())
        Same = true; // alpha (a - b) = 0.
      else if (Diff.isConstant())
        return Meeting::Maybe; // Iterations a fixed distance apart meet.
      continue;
    }
    if (Beta == 0 && (Alpha == 1 || Alpha == -1))
      PinA = (RB - RA) * Linear::constant(Alpha);
    else if (Alpha == 0 && (Beta == 1 || Beta == -1))
      PinB = (RA - RB) * Linear::constant(Beta);
  }
  if (Same)
    return Meeting::SameIteration;
  if (PinA && PinB && *PinA == *PinB)
    return Meeting::SameIteration;
  // A pinned iteration outside the loop's range: none meets.
  Linear Counter = Linear::atom(V);
  for (const std::optional<Linear> &Pin : {PinA, PinB})
    if (Pin && (Known.nonNegative(Counter - *Pin - Linear::constant(1)) ||
                Known.nonNegative(*Pin - Counter)))
      return Meeting::Never;
  return Meeting::Maybe;
}
} // namespace

llvm::Error checkIndependent(const UnitAST &U, const clang::VarDecl *Counter,
                             llvm::ArrayRef<IndexedAccess> Inside,
                             llvm::ArrayRef<IndexedAccess> Outside, const Ranges &Known,
                             bool NoAlias) {
  struct Tagged {
    const IndexedAccess *A;
    bool Inside;
  };
  std::map<const clang::VarDecl *, std::vector<Tagged>> ByRoot;
  for (const IndexedAccess &A : Inside)
    ByRoot[A.Root].push_back({&A, true});
  for (const IndexedAccess &A : Outside)
    ByRoot[A.Root].push_back({&A, false});
  auto Restricted = [](const clang::VarDecl *R) { return R->getType().isRestrictQualified(); };
  // Another buffer may be this one unless the pragma or __restrict__ says not.
  for (const auto &[Root, All] : ByRoot) {
    bool Written = false;
    for (const Tagged &T : All)
      Written |= T.A->Write;
    if (!Written || NoAlias || Restricted(Root))
      continue;
    for (const auto &[Other, OtherAll] : ByRoot)
      if (Other != Root && !Restricted(Other))
        return unsupported(U, All.front().A->At->getBeginLoc(),
                           "'" + Root->getName() + "' may alias '" + Other->getName() +
                               "' (no noalias clause, not __restrict__)");
  }
  for (const auto &[Root, All] : ByRoot) {
    bool Written = false;
    for (const Tagged &T : All)
      Written |= T.A->Write;
    if (!Written)
      continue;
    std::vector<const IndexedAccess *> Accesses;
    size_t Arity = All.front().A->Index.size();
    for (const Tagged &T : All) {
      if (T.A->Index.empty() || T.A->Index.size() != Arity)
        return unsupported(U, T.A->At->getBeginLoc(),
                           "an access to '" + Root->getName() + "' whose index is not affine");
      Accesses.push_back(T.A);
    }
    // Take flat indices apart by a row length that keeps every column part in
    // [0, S).
    std::map<const IndexedAccess *, std::vector<Linear>> Tuples;
    for (const IndexedAccess *A : Accesses)
      Tuples[A] = A->Index;
    if (Arity == 1)
      for (const Linear &S : strideCandidates(Accesses)) {
        bool Fits = true;
        std::map<const IndexedAccess *, std::vector<Linear>> Split;
        for (const IndexedAccess *A : Accesses) {
          auto [Row, Col] = split(A->Index.front(), S);
          Fits &= Known.nonNegative(Col) && Known.nonNegative(S - Linear::constant(1) - Col);
          Split[A] = {Row, Col};
        }
        if (Fits) {
          Tuples = std::move(Split);
          break;
        }
      }
    for (const Tagged &X : All)
      for (const Tagged &Y : All) {
        if (!X.A->Write || (!X.Inside && !Y.Inside))
          continue;
        if (meet(Tuples[X.A], X.Inside, Tuples[Y.A], Y.Inside, Counter, Known) != Meeting::Maybe)
          continue;
        const IndexedAccess *Where = X.Inside ? X.A : Y.A;
        return unsupported(U, Where->At->getBeginLoc(),
                           "iterations of the loop may reach the same element of '" +
                               Root->getName() + "'" +
                               (X.Inside && Y.Inside ? "" : " as code beside the loop"));
      }
  }
  return llvm::Error::success();
}

} // namespace kopt::transform
