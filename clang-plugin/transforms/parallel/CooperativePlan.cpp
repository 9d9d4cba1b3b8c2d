#include "clang-plugin/transforms/parallel/CooperativePlan.h"

#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/DeclOrder.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/TreeReduction.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <functional>
#include <map>
#include <set>

namespace kopt::transform {

namespace {
// A variable the loop folds into.
struct VarFold {
  const clang::VarDecl *Var = nullptr;
  Fold How;
};

// A global location p[E] the loop sums into (E the same in every iteration):
// a register takes the sum, and lane 0 adds the group's total to p[E] after.
struct MemoryFold {
  std::string Place; // "p[E]" as written.
  std::string Type;
  std::vector<const clang::Expr *> Uses; // Every p[E] in the loop.
};

// What a loop spread over the lanes does.
struct Spread {
  LoopCounter Counter;
  std::vector<VarFold> Vars;
  std::vector<MemoryFold> Memory;
  bool Stores = false; // Stores to p[j] or p[E + j].
};

// Whether E is the whole subscript P[Index] (Index as indexText gives it).
bool isSubscriptOf(const clang::Expr *E, const clang::VarDecl *P, const std::string &Index,
                   const UnitAST &U) {
  const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!Sub)
    return false;
  std::optional<Subscripted> S = subscripted(Sub);
  return S && S->Base == P && indexText(U, *S) == Index;
}

// A return or goto under S, or a break that leaves the loop S is the body of
// (not one of a loop or switch nested in it); null for none.
const clang::Stmt *leavingStatement(const clang::Stmt *S, bool Nested) {
  if (!S)
    return nullptr;
  if (llvm::isa<clang::ReturnStmt, clang::GotoStmt, clang::IndirectGotoStmt>(S) ||
      (llvm::isa<clang::BreakStmt>(S) && !Nested))
    return S;
  bool Inner = llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::SwitchStmt>(S);
  for (const clang::Stmt *Child : S->children())
    if (const clang::Stmt *Exit = leavingStatement(Child, Nested || Inner))
      return Exit;
  return nullptr;
}

bool allRestrict(const std::set<const clang::VarDecl *> &Roots) {
  for (const clang::VarDecl *R : Roots)
    if (!R->getType().isRestrictQualified())
      return false;
  return true;
}
} // namespace

class CooperativePlanner::Impl {
public:
  Impl(UnitAST &AST, const LaneGroup &Group, bool NoAliasClause)
      : U(AST), G(Group), NoAlias(NoAliasClause) {
    // Where a pointer is reassigned, its initializer no longer says where it
    // points.
    forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
      const clang::Expr *Target = nullptr;
      if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X); Bin && Bin->isAssignmentOp())
        Target = Bin->getLHS();
      else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X);
               Un && Un->isIncrementDecrementOp())
        Target = Un->getSubExpr();
      if (const clang::VarDecl *V = Target ? varOf(Target) : nullptr)
        PointerAssigned |= V->getType()->isPointerType();
    });
  }

  llvm::Error statement(const clang::Stmt *S, bool Tail) {
    if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(S)) {
      size_t I = 0, N = Block->size();
      for (const clang::Stmt *Child : Block->body())
        if (llvm::Error E = statement(Child, Tail && ++I == N))
          return E;
      return llvm::Error::success();
    }
    if (const auto *Attributed = llvm::dyn_cast<clang::AttributedStmt>(S);
        Attributed && containsLoop(S)) {
      if (const auto *For = llvm::dyn_cast<clang::ForStmt>(Attributed->getSubStmt()))
        return loop(*For, *S, Tail);
      return unsupported(U, S->getBeginLoc(), "a loop under a pragma that is not a for loop");
    }
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      return loop(*For, *For, Tail);
    if (llvm::isa<clang::WhileStmt, clang::DoStmt>(S) && containsLoop(loopBody(*S)))
      return uniformLoop(*S);
    if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S); If && containsLoop(S)) {
      if (If->getInit() || If->getConditionVariable() || If->isConstexpr())
        return unsupported(U, If->getBeginLoc(), "an if with a declaration around a loop");
      llvm::Expected<std::vector<Write>> Writes = writesIn(U, If->getCond());
      if (!Writes)
        return Writes.takeError();
      if (!Writes->empty())
        return unsupported(U, If->getBeginLoc(), "a condition that assigns");
      Fenced &= !readsMemory(If->getCond());
      bool Entry = Fenced;
      if (llvm::Error E = statement(If->getThen(), Tail))
        return E;
      Fenced = Entry;
      if (If->getElse())
        if (llvm::Error E = statement(If->getElse(), Tail))
          return E;
      Fenced = false; // Conservatively: either branch may have read memory.
      return llvm::Error::success();
    }
    if (containsLoop(S))
      return unsupported(U, S->getBeginLoc(), "a loop that is not a counted for loop");
    return plain(*S, Tail);
  }

  llvm::Error run() { return statement(U.Kernel.getBody(), /*Tail=*/true); }

  unsigned Loops = 0, Reductions = 0;

private:
  // The whole p[i][k] around its innermost part p[i].
  const clang::Expr *outermost(const clang::ArraySubscriptExpr *E) const {
    const clang::Expr *Cur = E;
    for (;;) {
      const auto *Sub =
          llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parentPastParensAndCasts(Cur, U.Ctx));
      if (!Sub || Sub->getBase()->IgnoreParenImpCasts() != Cur->IgnoreParenImpCasts())
        return Cur;
      Cur = Sub;
    }
  }

  static const clang::Stmt *loopBody(const clang::Stmt &S) {
    if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(&S))
      return While->getBody();
    if (const auto *Do = llvm::dyn_cast<clang::DoStmt>(&S))
      return Do->getBody();
    return llvm::cast<clang::ForStmt>(&S)->getBody();
  }

  // A thread may run ahead into a store while another still reads what the
  // store overwrites: a wait first, unless none of the group's lanes read
  // memory since the last one.
  std::string fence() {
    std::string Text = Fenced ? "" : G.sync() + "\n";
    Fenced = true;
    return Text;
  }

  // A statement without loops: every lane runs it, unless it writes memory,
  // which lane 0 alone does (then the group waits for the store).
  llvm::Error plain(const clang::Stmt &S, bool Tail) {
    llvm::Expected<std::vector<Write>> Writes = writesIn(U, &S);
    if (!Writes)
      return Writes.takeError();
    bool Memory = false, Variable = false;
    for (const Write &W : *Writes)
      (W.Memory ? Memory : Variable) = true;
    if (!Memory) {
      Fenced &= !readsMemory(&S);
      return llvm::Error::success();
    }
    if (Variable || llvm::isa<clang::DeclStmt>(S) || inspectStmt(S).Control)
      return unsupported(U, S.getBeginLoc(),
                         "a statement that writes memory and also assigns a variable or returns");
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, S);
    if (!Range)
      return Range.takeError();
    // Braces keep the waits with the statement where it is an if's branch.
    U.Rewrite.InsertTextBefore(Range->getBegin(),
                               "{\n" + fence() + "if (" + G.lane() + " == 0) {\n");
    U.Rewrite.InsertTextAfter(Range->getEnd(), Tail ? "\n}\n}" : "\n}\n" + G.sync() + "\n}");
    Fenced = !Tail;
    return llvm::Error::success();
  }

  // A loop that is spread over the lanes where it can be; else, where it
  // holds loops, one that every lane runs alike around them.
  llvm::Error loop(const clang::ForStmt &For, const clang::Stmt &Whole, bool Tail) {
    llvm::Expected<Spread> Plan = planSpread(For);
    if (Plan)
      return spread(For, Whole, *Plan, Tail);
    if (!containsLoop(For.getBody()))
      return Plan.takeError();
    llvm::consumeError(Plan.takeError());
    return uniformLoop(For);
  }

  // Every lane runs the loop's iterations alike: its header may not write
  // memory, and its body is planned like the kernel's (a later iteration
  // follows the end of the body: nothing is known to be fenced there).
  llvm::Error uniformLoop(const clang::Stmt &Loop) {
    for (const clang::Stmt *Child : Loop.children())
      if (Child && Child != loopBody(Loop)) {
        llvm::Expected<std::vector<Write>> Writes = writesIn(U, Child);
        if (!Writes)
          return Writes.takeError();
        for (const Write &W : *Writes)
          if (W.Memory)
            return unsupported(U, W.At->getBeginLoc(), "a loop header that writes memory");
      }
    Fenced = false;
    if (llvm::Error E = statement(loopBody(Loop), /*Tail=*/false))
      return E;
    Fenced = false;
    return llvm::Error::success();
  }

  llvm::Expected<Spread> planSpread(const clang::ForStmt &For) {
    std::optional<LoopCounter> L = loopCounter(For, U);
    if (!L)
      return unsupported(U, For.getBeginLoc(), "a loop that is not for (int j = E0; j < E1; j++)");
    if (llvm::Error E = checkCounterDead(U, *L))
      return E;
    // A continue of this loop goes on to the lane's next iteration, as it
    // went on to the thread's.
    if (const clang::Stmt *Exit = leavingStatement(For.getBody(), /*Nested=*/false))
      return unsupported(U, Exit->getBeginLoc(), "a loop with return, break or goto");
    llvm::Expected<std::vector<Write>> Writes = writesIn(U, For.getBody());
    if (!Writes)
      return Writes.takeError();
    std::set<const clang::VarDecl *> Locals = declaredIn(For.getBody());
    std::set<const clang::VarDecl *> Outer;
    std::vector<const Write *> Memory;
    for (const Write &W : *Writes) {
      if (W.Memory)
        Memory.push_back(&W);
      else if (W.Var == L->Var)
        return unsupported(U, W.At->getBeginLoc(), "the loop assigns its own counter");
      else if (!Locals.count(W.Var))
        Outer.insert(W.Var);
    }
    for (const clang::VarDecl *V : Outer)
      if (mentions(L->Init, V) || mentions(L->Bound, V))
        return unsupported(U, For.getBeginLoc(), "the loop's bounds change in the loop");
    Spread Plan;
    Plan.Counter = *L;
    std::vector<const Write *> Stores = memoryFolds(For, *L, Locals, Outer, Memory, Plan);
    Plan.Stores = !Stores.empty();
    for (const clang::VarDecl *V : Outer) {
      llvm::Expected<VarFold> F = varFold(For, V, Plan.Stores);
      if (!F)
        return F.takeError();
      Plan.Vars.push_back(*F);
    }
    if (llvm::Error E = checkMap(For, *L, Stores, Locals))
      return E;
    if (llvm::Error E = checkFoldAliases(For, Plan))
      return E;
    return Plan;
  }

  // Every update of V folds into it the same way, and nothing else in the
  // loop reads it.
  llvm::Expected<VarFold> varFold(const clang::ForStmt &For, const clang::VarDecl *V, bool Stores) {
    std::optional<VarFolds> Folds = foldsOf(U, For.getBody(), V, /*Counts=*/true);
    if (!Folds)
      return unsupported(U, For.getBeginLoc(),
                         "the loop updates '" + V->getName() +
                             "' other than by s += e, s++ or s = max/min(s, e)");
    if (countRefs(For.getBody(), V) != Folds->Refs)
      return unsupported(U, For.getBeginLoc(),
                         Stores ? "the loop carries state other than one reduction (a scan?)"
                                : "the loop reads '" + V->getName() + "' outside its updates");
    if (!shuffleType(V->getType()))
      return unsupported(U, V->getLocation(),
                         "'" + V->getName() + "' has a type the warp shuffle cannot move");
    return VarFold{V, Folds->How};
  }

  // The memory writes that sum into one location p[E] of the loop become
  // Plan.Memory; the others are returned (stores for checkMap).
  std::vector<const Write *> memoryFolds(const clang::ForStmt &For, const LoopCounter &L,
                                         const std::set<const clang::VarDecl *> &Locals,
                                         const std::set<const clang::VarDecl *> &Outer,
                                         const std::vector<const Write *> &Memory, Spread &Plan) {
    std::map<std::pair<const clang::VarDecl *, std::string>, std::vector<const Write *>,
             WrittenBefore>
        ByPlace;
    std::vector<const Write *> Rest;
    for (const Write *W : Memory) {
      std::optional<Subscripted> S = W->Subscript ? subscripted(W->Subscript) : std::nullopt;
      std::string Index = S ? indexText(U, *S) : "";
      bool Invariant = !Index.empty();
      for (const clang::Expr *I : S ? S->Indices : std::vector<const clang::Expr *>())
        Invariant &= invariant(I, L, Locals, Outer);
      if (!Invariant)
        Rest.push_back(W);
      else
        ByPlace[{W->Var, Index}].push_back(W);
    }
    for (auto &[Key, Writes] : ByPlace) {
      const auto &[Base, Index] = Key;
      auto IsPlace = [&](const clang::Expr *E) { return isSubscriptOf(E, Base, Index, U); };
      unsigned Refs = 0;
      bool Folds = shuffleType(Writes.front()->Subscript->getType());
      for (const Write *W : Writes) {
        const auto *Bin = llvm::dyn_cast_or_null<clang::BinaryOperator>(parentOf(W->At, U.Ctx));
        std::optional<FoldUpdate> One =
            Bin && Bin->getLHS() == W->At ? foldUpdate(U, *Bin, IsPlace) : std::nullopt;
        const clang::Stmt *Parent = Bin ? parentOf(Bin, U.Ctx) : nullptr;
        Folds &= One && One->How.Op == Fold::Sum && Parent && !llvm::isa<clang::Expr>(Parent);
        Refs += One ? One->Refs : 0;
      }
      // Nothing else in the loop touches p: every use of it is one of these.
      std::vector<const clang::Expr *> Uses;
      forEachStmt(For.getBody(), [&](const clang::Stmt *X) {
        if (const auto *E = llvm::dyn_cast<clang::ArraySubscriptExpr>(X); E && IsPlace(E))
          Uses.push_back(E);
      });
      if (!Folds || Uses.size() != Refs || countRefs(For.getBody(), Base) != Refs) {
        Rest.insert(Rest.end(), Writes.begin(), Writes.end());
        continue;
      }
      llvm::Expected<std::string> Place = exprText(U, *Uses.front());
      if (!Place) {
        llvm::consumeError(Place.takeError());
        Rest.insert(Rest.end(), Writes.begin(), Writes.end());
        continue;
      }
      Plan.Memory.push_back({*Place, typeText(Uses.front()->getType(), U), Uses});
    }
    return Rest;
  }

  // E is the same in every iteration: it names neither the counter, nor what
  // the loop declares or assigns, nor memory.
  bool invariant(const clang::Expr *E, const LoopCounter &L,
                 const std::set<const clang::VarDecl *> &Locals,
                 const std::set<const clang::VarDecl *> &Outer) const {
    if (E->HasSideEffects(U.Ctx) || readsMemory(E) || mentions(E, L.Var))
      return false;
    for (const auto *Set : {&Locals, &Outer})
      for (const clang::VarDecl *V : *Set)
        if (mentions(E, V))
          return false;
    return true;
  }

  // A location the loop sums into must not be reachable through another
  // pointer the loop uses: not through one into the same buffer, and not
  // through another parameter unless the pragma says noalias or one of the
  // two is __restrict__.
  llvm::Error checkFoldAliases(const clang::ForStmt &For, const Spread &Plan) {
    for (const MemoryFold &M : Plan.Memory) {
      const clang::VarDecl *Base = subscripted(M.Uses.front())->Base;
      std::set<const clang::VarDecl *> Mine = pointerRoots(Base);
      for (const clang::VarDecl *Other : pointersIn(For.getBody())) {
        if (Other == Base)
          continue;
        std::set<const clang::VarDecl *> Theirs = pointerRoots(Other);
        bool Shares = false;
        for (const clang::VarDecl *R : Theirs)
          Shares |= Mine.count(R) > 0;
        if (Shares)
          return unsupported(U, M.Uses.front()->getBeginLoc(),
                             "the loop reaches the buffer of '" + Base->getName() + "' through '" +
                                 Other->getName() + "'");
        if (!NoAlias && !allRestrict(Mine) && !allRestrict(Theirs))
          return unsupported(U, M.Uses.front()->getBeginLoc(),
                             "'" + Base->getName() + "' may alias '" + Other->getName() +
                                 "' (no noalias clause, not __restrict__)");
      }
    }
    return llvm::Error::success();
  }

  // Whether V >= 1 wherever Loop runs: a check around it passes only for
  // p < V, p a thread position (>= 0) and neither changed in the kernel
  // (`if (j < n)`, or `if (j >= n) return;` before it).
  bool positiveWhereItRuns(const clang::Stmt &Loop, const clang::VarDecl *V) {
    std::set<const clang::VarDecl *> Changed = changedVariables(U.Kernel.getBody());
    std::vector<PositionSum> Sums;
    if (!V || Changed.count(V))
      return false;
    if (llvm::Error E = checkGlobalIndexForm(U, "xyz", /*AllowBlockZ=*/true, &Sums)) {
      llvm::consumeError(std::move(E));
      return false;
    }
    std::set<const clang::Expr *> Positions;
    for (const PositionSum &S : Sums)
      Positions.insert(S.Sum->IgnoreParenImpCasts());
    auto IsPosition = [&](const clang::Expr *E) {
      if (Positions.count(E->IgnoreParenImpCasts()))
        return true;
      const clang::VarDecl *P = namedVariable(E);
      return P && P->getInit() && !Changed.count(P) &&
             Positions.count(P->getInit()->IgnoreParenImpCasts());
    };
    // Whether Cond having the value Holds means p < V.
    std::function<bool(const clang::Expr *, bool)> Implies = [&](const clang::Expr *Cond,
                                                                 bool Holds) {
      Cond = Cond->IgnoreParenImpCasts();
      if (const auto *Not = llvm::dyn_cast<clang::UnaryOperator>(Cond);
          Not && Not->getOpcode() == clang::UO_LNot)
        return Implies(Not->getSubExpr(), !Holds);
      const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(Cond);
      if (!Bin)
        return false;
      if (Bin->getOpcode() == (Holds ? clang::BO_LAnd : clang::BO_LOr))
        return Implies(Bin->getLHS(), Holds) || Implies(Bin->getRHS(), Holds);
      if (!Bin->isComparisonOp())
        return false;
      clang::BinaryOperatorKind Op = Bin->getOpcode();
      const clang::Expr *Left = Bin->getLHS(), *Right = Bin->getRHS();
      if (namedVariable(Left) == V) { // The position on the left: V > p is p < V.
        std::swap(Left, Right);
        Op = clang::BinaryOperator::reverseComparisonOp(Op);
      }
      if (!Holds)
        Op = clang::BinaryOperator::negateComparisonOp(Op);
      return Op == clang::BO_LT && namedVariable(Right) == V && IsPosition(Left);
    };
    const clang::Stmt *Body = U.Kernel.getBody();
    for (const clang::Stmt *Cur = &Loop; Cur && Cur != Body;) {
      const clang::Stmt *Up = parentOf(Cur, U.Ctx);
      if (const auto *If = llvm::dyn_cast_or_null<clang::IfStmt>(Up);
          If && (Cur == If->getThen() || Cur == If->getElse()) &&
          Implies(If->getCond(), Cur == If->getThen()))
        return true;
      if (const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(Up))
        for (const clang::Stmt *Before : Block->body()) {
          if (Before == Cur)
            break;
          if (const clang::Expr *Exit = earlyReturnCondition(*Before); Exit && Implies(Exit, false))
            return true;
        }
      Cur = Up;
    }
    return false;
  }

  // Every store goes to p[j], p[E + j] or p[j * C + E] (E the same in all
  // iterations, C a nonzero constant or a variable that a check around the
  // loop keeps positive), and the loop touches p nowhere else: iterations
  // are independent.
  llvm::Error checkMap(const clang::ForStmt &For, const LoopCounter &L,
                       const std::vector<const Write *> &Memory,
                       const std::set<const clang::VarDecl *> &Locals) {
    auto Invariant = [&](const clang::Expr *E) {
      if (E->HasSideEffects(U.Ctx) || mentions(E, L.Var))
        return false;
      for (const clang::VarDecl *V : Locals)
        if (mentions(E, V))
          return false;
      return true;
    };
    // j, or j times a nonzero constant (a column of a row-major array:
    // a[j * N + col]), so that iterations reach distinct elements.
    auto Scaled = [&](const clang::Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (isVarRef(E, L.Var))
        return true;
      const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(E);
      if (!Mul || Mul->getOpcode() != clang::BO_Mul)
        return false;
      for (auto [Var, Factor] :
           {std::pair(Mul->getLHS(), Mul->getRHS()), std::pair(Mul->getRHS(), Mul->getLHS())}) {
        std::optional<llvm::APSInt> C = Factor->getIntegerConstantExpr(U.Ctx);
        if (isVarRef(Var, L.Var) &&
            ((C && *C != 0) || positiveWhereItRuns(For, namedVariable(Factor))))
          return true;
      }
      return false;
    };
    // That, plus E the same in all iterations.
    auto Moves = [&](const clang::Expr *Index) {
      Index = Index->IgnoreParenImpCasts();
      if (Scaled(Index))
        return true;
      const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(Index);
      return Add && Add->getOpcode() == clang::BO_Add &&
             ((Scaled(Add->getLHS()) && Invariant(Add->getRHS())) ||
              (Scaled(Add->getRHS()) && Invariant(Add->getLHS())));
    };
    for (const Write *W : Memory) {
      std::optional<Subscripted> S = W->Subscript ? subscripted(W->Subscript) : std::nullopt;
      if (!S)
        return unsupported(U, W->At->getBeginLoc(), "a store that is not p[index]");
      // One index moves with j, the others stay: each iteration its own element.
      unsigned Moving = 0, Staying = 0;
      for (const clang::Expr *I : S->Indices) {
        Moving += Moves(I);
        Staying += Invariant(I);
      }
      if (Moving != 1 || Staying + 1 != S->Indices.size())
        return unsupported(
            U, W->At->getBeginLoc(),
            "a store whose index is not j, E + j or j * C + E (C nonzero) for the loop's j");
      std::string Text = indexText(U, *S);
      if (Text.empty())
        return unsupported(U, W->At->getBeginLoc(), "a store index from a macro");
      // Every use of the pointer in the loop is the same element.
      unsigned Same = 0;
      forEachStmt(For.getBody(), [&](const clang::Stmt *X) {
        const auto *E = llvm::dyn_cast<clang::ArraySubscriptExpr>(X);
        if (E && !llvm::isa<clang::ArraySubscriptExpr>(E->getBase()->IgnoreParenImpCasts()) &&
            varOf(E->getBase()) == W->Var)
          Same += isSubscriptOf(outermost(E), W->Var, Text, U);
      });
      if (Same != countRefs(For.getBody(), W->Var))
        return unsupported(U, W->At->getBeginLoc(),
                           "the loop reads '" + W->Var->getName() + "' at another index");
      // The loop must not reach the stored buffer through another pointer
      // (a parameter, or a local pointer into the same parameter).
      if (PointerAssigned)
        return unsupported(U, W->At->getBeginLoc(), "the kernel reassigns a pointer");
      std::set<const clang::VarDecl *> Stored = pointerRoots(W->Var);
      for (const clang::VarDecl *Other : pointersIn(For.getBody())) {
        if (Other == W->Var)
          continue;
        for (const clang::VarDecl *Root : pointerRoots(Other))
          if (Stored.count(Root))
            return unsupported(U, W->At->getBeginLoc(),
                               "the loop reaches the buffer of '" + W->Var->getName() +
                                   "' through '" + Other->getName() + "'");
      }
    }
    return llvm::Error::success();
  }

  // Queues the edits of a spread loop: j starts at E0 + lane and steps by the
  // group's size; folds are set up before and reduced after.
  llvm::Error spread(const clang::ForStmt &For, const clang::Stmt &Whole, const Spread &Plan,
                     bool Tail) {
    const LoopCounter &L = Plan.Counter;
    const clang::Expr *Inc = For.getInc();
    if (L.Init->getBeginLoc().isMacroID() || L.Init->getEndLoc().isMacroID() ||
        Inc->getBeginLoc().isMacroID() || Inc->getEndLoc().isMacroID())
      return unsupported(U, For.getBeginLoc(), "the loop's header comes from a macro");
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, Whole);
    if (!Range)
      return Range.takeError();
    llvm::Expected<std::string> InitText = exprText(U, *L.Init), BoundText = exprText(U, *L.Bound);
    if (!InitText)
      return InitText.takeError();
    if (!BoundText)
      return BoundText.takeError();
    bool Folds = !Plan.Vars.empty() || !Plan.Memory.empty();
    std::string Before, After;
    if (Plan.Stores)
      Before += fence();
    for (const VarFold &F : Plan.Vars)
      Before += G.beforeFold(F.Var->getName().str(), F.How);
    std::vector<std::string> Reduce;
    for (const VarFold &F : Plan.Vars)
      Reduce.push_back(
          G.reduce(typeText(F.Var->getType(), U), F.Var->getName().str(), F.How, Reductions++));
    std::string Adds;
    for (const MemoryFold &M : Plan.Memory) {
      unsigned Site = Reductions++;
      std::string Acc = "kopt_acc" + std::to_string(Site), Run = "kopt_run" + std::to_string(Site);
      Before += M.Type + " " + Acc + " = 0;\nconst bool " + Run + " = (" + *InitText + ") " +
                L.Comparison + " (" + *BoundText + ");\n";
      for (const clang::Expr *Use : M.Uses)
        if (U.Rewrite.ReplaceText(Use->getSourceRange(), Acc))
          return unsupported(U, Use->getBeginLoc(), "cannot edit the accumulation");
      Reduce.push_back(G.reduce(M.Type, Acc, Fold{}, Site));
      Adds += "\nif (" + G.lane() + " == 0 && " + Run + ")\n  " + M.Place + " += " + Acc + ";";
    }
    for (const std::string &R : Reduce)
      After += "\n" + R;
    if (Folds)
      After += G.afterReductions();
    if (!Adds.empty())
      After += Adds + (Tail ? "" : "\n" + G.sync());
    if (Folds) {
      Fenced = true; // The reductions end with a wait.
    } else if (Plan.Stores) {
      if (!Tail) // Later statements may read what the loop stored.
        After += "\n" + G.sync();
      Fenced = !Tail ? true : !readsMemory(For.getBody()) && Fenced;
    } else {
      Fenced = !readsMemory(For.getBody()) && Fenced;
    }
    std::string T = typeText(L.Var->getType(), U);
    std::string J = L.Var->getName().str();
    U.Rewrite.InsertTextBefore(L.Init->getBeginLoc(), "(");
    U.Rewrite.InsertTextAfterToken(L.Init->getEndLoc(), ") + (" + T + ")" + G.lane());
    U.Rewrite.ReplaceText(Inc->getSourceRange(), J + " += " + G.stride(T));
    if (!Before.empty() || !After.empty()) {
      U.Rewrite.InsertTextBefore(Range->getBegin(), "{\n" + Before);
      U.Rewrite.InsertTextAfter(Range->getEnd(), After + "\n}");
    }
    ++Loops;
    return llvm::Error::success();
  }

  UnitAST &U;
  const LaneGroup &G;
  bool NoAlias = false;
  bool Fenced = true; // No lane has read memory since the last wait.
  bool PointerAssigned = false;
};

CooperativePlanner::CooperativePlanner(UnitAST &U, const LaneGroup &Group, bool NoAlias)
    : P(std::make_unique<Impl>(U, Group, NoAlias)) {}
CooperativePlanner::~CooperativePlanner() = default;

llvm::Error CooperativePlanner::run() { return P->run(); }

unsigned CooperativePlanner::loops() const { return P->Loops; }
unsigned CooperativePlanner::reductions() const { return P->Reductions; }

llvm::Expected<CooperativeRewrite> rewriteCooperative(const TransformInput &In,
                                                      const LaneGroup &Group) {
  CooperativeRewrite Out;
  auto Edit = [&](UnitAST &AST) -> llvm::Error {
    if (AST.Kernel.hasAttr<clang::CUDALaunchBoundsAttr>())
      return llvm::createStringError("the kernel has __launch_bounds__");
    std::vector<PositionSum> Sums;
    if (llvm::Error E =
            checkGlobalIndexForm(AST, Group.TwoD ? "xy" : "x", /*AllowBlockZ=*/true, &Sums))
      return E;
    bool X = false;
    for (const PositionSum &S : Sums)
      X |= S.Dim == 'x';
    if (!X)
      return llvm::createStringError("the kernel has no x position blockIdx.x * blockDim.x + "
                                     "threadIdx.x");
    const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(AST.Kernel.getBody());
    if (!Body || Body->getLBracLoc().isMacroID())
      return llvm::createStringError("the kernel's body is not a plain block");
    // The features let a block tree through for the tree-atomics
    // normalization; whatever is left ties threads together.
    if (StmtContents C = inspectStmt(*Body); C.Shared || C.Barrier)
      return llvm::createStringError(
          "the kernel uses shared memory or barriers (other than a block tree whose total one "
          "atomic adds to global memory)");
    CooperativePlanner Plan(AST, Group, In.Kernel.Pragma && In.Kernel.Pragma->NoAlias);
    if (llvm::Error E = Plan.run())
      return E;
    if (Plan.loops() == 0)
      return llvm::createStringError("the kernel has no loop to spread over the lanes");
    for (const PositionSum &S : Sums) {
      std::string Position = Group.position(S.Dim);
      if (!Position.empty() && AST.Rewrite.ReplaceText(S.Sum->getSourceRange(), Position))
        return unsupported(AST, S.Sum->getBeginLoc(), "cannot rewrite the thread's position");
    }
    AST.Rewrite.InsertTextAfterToken(Body->getLBracLoc(), Group.prologue());
    if (std::string Attributes = Group.kernelAttributes(); !Attributes.empty()) {
      clang::SourceLocation Name = AST.Kernel.getLocation();
      if (Name.isMacroID())
        return llvm::createStringError("the kernel's name comes from a macro");
      AST.Rewrite.InsertTextBefore(Name, Attributes);
    }
    Out.Loops = Plan.loops();
    Out.Reductions = Plan.reductions();
    return llvm::Error::success();
  };
  llvm::Expected<NormalizedRewrite> Text = rewriteNormalized(In, cooperativeNormalizations(), Edit);
  if (!Text)
    return Text.takeError();
  Out.Unit = std::move(Text->UnitText);
  Out.Steps = std::move(Text->Steps);
  return Out;
}

} // namespace kopt::transform

namespace kopt::transform {

Fit cooperativeFit(const frontend::KernelSummary &Kernel, bool AtomicTrees) {
  const frontend::KernelFeatures &F = Kernel.Features;
  if (Fit Fits = dimensionsBetween(Kernel, 1, 2); !Fits)
    return Fits;
  if (Fit Fits = independentThreads(Kernel);
      !Fits && !(AtomicTrees && frontend::mayHoldAtomicTrees(F)))
    return Fits;
  if (F.Guards.empty())
    return Fit::no("the kernel has no bounds check on its position");
  for (const std::string &B : F.IndexBuiltins)
    if (llvm::StringRef(B).starts_with("gridDim"))
      return Fit::no("the kernel reads gridDim (a grid-stride loop: grid-stride-cover first)");
  std::optional<std::array<int64_t, 3>> Block = pragmaBlockDims(Kernel);
  if (Block && (*Block)[2] != 1)
    return Fit::no("the pragma's block has a z dimension");
  return Fit::yes();
}

bool readsY(const frontend::KernelSummary &Kernel) {
  for (const std::string &B : Kernel.Features.IndexBuiltins)
    if (llvm::StringRef(B).ends_with(".y"))
      return true;
  return false;
}

} // namespace kopt::transform
