#include "clang-plugin/analysis/CarriedStores.h"

#include "clang-plugin/analysis/IndexPolynomial.h"
#include "clang-plugin/analysis/ast/AstWalk.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <optional>
#include <set>

namespace kopt::frontend {

namespace {

// The counter a for loop declares or assigns in its init.
const clang::VarDecl *counterOf(const clang::ForStmt &For) {
  const clang::Stmt *Init = For.getInit();
  if (const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(Init)) {
    const auto *V =
        Decl->isSingleDecl() ? llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl()) : nullptr;
    return V && V->getInit() && V->getType()->isIntegerType() ? V : nullptr;
  }
  if (const auto *Assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(Init);
      Assign && Assign->getOpcode() == clang::BO_Assign) {
    const clang::VarDecl *V = transform::namedVariable(Assign->getLHS());
    return V && V->getType()->isIntegerType() ? V : nullptr;
  }
  return nullptr;
}

// The constant the loop's increment adds to Counter: i++, --i, i += 2.
std::optional<int64_t> stepOf(const clang::ForStmt &For, const clang::VarDecl &Counter,
                              const clang::ASTContext &Ctx) {
  const clang::Expr *Inc = For.getInc();
  if (!Inc)
    return std::nullopt;
  Inc = Inc->IgnoreParens();
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Inc);
      U && U->isIncrementDecrementOp() && transform::namedVariable(U->getSubExpr()) == &Counter)
    return U->isIncrementOp() ? 1 : -1;
  const auto *C = llvm::dyn_cast<clang::CompoundAssignOperator>(Inc);
  if (!C || transform::namedVariable(C->getLHS()) != &Counter ||
      (C->getOpcode() != clang::BO_AddAssign && C->getOpcode() != clang::BO_SubAssign))
    return std::nullopt;
  std::optional<llvm::APSInt> V = C->getRHS()->getIntegerConstantExpr(Ctx);
  if (!V || V->getSignificantBits() > 32 || V->isZero())
    return std::nullopt;
  return C->getOpcode() == clang::BO_AddAssign ? V->getExtValue() : -V->getExtValue();
}

// A continue of this loop (not of one nested in it), or any goto.
bool leavesIterationEarly(const clang::Stmt *S, bool Nested) {
  if (!S)
    return false;
  if (llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt>(S))
    return true;
  if (llvm::isa<clang::ContinueStmt>(S) && !Nested)
    return true;
  bool Loop = llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(S);
  for (const clang::Stmt *Child : S->children())
    if (leavesIterationEarly(Child, Nested || Loop))
      return true;
  return false;
}

// Whether E's value is loaded where it stands (not assigned, incremented or
// taken the address of).
bool readAsValue(const clang::Expr &E, clang::ASTContext &Ctx) {
  const auto *Cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(transform::parentOf(&E, Ctx));
  return Cast && Cast->getCastKind() == clang::CK_LValueToRValue;
}

const clang::VarDecl *subscriptBase(const clang::ArraySubscriptExpr &E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E.getBase()->IgnoreParenImpCasts());
  const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  return V && V->getType()->isPointerType() ? V : nullptr;
}

// Whether every mention of Array in Loop is the base of a subscript read as
// a value, except Store's target: no other write, no pointer arithmetic or
// escape that could write it.
bool writtenOnlyBy(const clang::Stmt &Loop, const clang::VarDecl &Array,
                   const clang::ArraySubscriptExpr &Target, clang::ASTContext &Ctx) {
  bool Ok = true;
  transform::forEachStmt(&Loop, [&](const clang::Stmt *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    if (!Ok || !Ref || Ref->getDecl() != &Array)
      return;
    const clang::Stmt *Sub = transform::parentPastParensAndCasts(Ref, Ctx);
    const auto *Access = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(Sub);
    if (!Access || Access->getBase()->IgnoreParenImpCasts() != Ref) {
      Ok = false;
      return;
    }
    Ok = Access == &Target || readAsValue(*Access, Ctx);
  });
  return Ok;
}

struct LoopScan {
  clang::ASTContext &Ctx;
  const clang::FunctionDecl &Kernel;
  std::vector<const clang::ForStmt *> Loops;
  std::vector<const clang::VarDecl *> Counters; // Of every for loop: outer ones are atoms too.

  void storesOf(const clang::ForStmt &For, std::vector<CarriedStore> &Out) const {
    const clang::VarDecl *Counter = counterOf(For);
    const clang::Stmt *Body = For.getBody();
    if (!Counter || !Body || leavesIterationEarly(Body, false))
      return;
    std::optional<int64_t> Step = stepOf(For, *Counter, Ctx);
    if (!Step || transform::changedVariables(Body).count(Counter))
      return;
    const std::set<const clang::VarDecl *> ChangedInLoop = transform::changedVariables(&For);
    std::vector<const clang::Stmt *> Statements;
    if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Body))
      Statements.assign(Block->body_begin(), Block->body_end());
    else
      Statements.push_back(Body);
    for (size_t K = 0; K < Statements.size(); ++K) {
      const auto *Store = llvm::dyn_cast<clang::BinaryOperator>(Statements[K]);
      if (!Store || Store->getOpcode() != clang::BO_Assign)
        continue;
      // `A[i] = (kopt_c0 = v)`: carried already (an earlier step of a chain).
      if (const auto *Value =
              llvm::dyn_cast<clang::BinaryOperator>(Store->getRHS()->IgnoreParens());
          Value && Value->getOpcode() == clang::BO_Assign)
        continue;
      const auto *Target =
          llvm::dyn_cast<clang::ArraySubscriptExpr>(Store->getLHS()->IgnoreParens());
      const clang::VarDecl *Array = Target ? subscriptBase(*Target) : nullptr;
      if (!Array || !Target->getType()->isArithmeticType() ||
          Target->getType().isVolatileQualified() || ChangedInLoop.count(Array) ||
          !writtenOnlyBy(For, *Array, *Target, Ctx))
        continue;
      IndexPolyBuilder Builder(Ctx, Kernel);
      for (const clang::VarDecl *C : Counters)
        Builder.addLoopVar(C);
      llvm::Expected<IndexPoly> Index = Builder.build(Target->getIdx());
      if (!Index) {
        llvm::consumeError(Index.takeError());
        continue;
      }
      std::optional<unsigned> Atom;
      bool OtherReadsCounter = false;
      for (unsigned A = 0; A < Builder.atomCount(); ++A) {
        const PolyAtom &P = Builder.atom(A);
        if (!Index->mentions(A))
          continue;
        if (P.Kind == AtomKind::LoopVar && P.Decl == Counter)
          Atom = A;
        else if (P.Kind == AtomKind::Opaque && P.ReadsLoopVar)
          OtherReadsCounter = true; // Cannot shift what an opaque term reads.
      }
      if (!Atom || OtherReadsCounter || Index->overflowed())
        continue;
      IndexPoly Previous =
          Index->substitute(*Atom, IndexPoly::atom(*Atom) - IndexPoly::constant(*Step));
      CarriedStore Found{&For, Counter, *Step, Store, Array, {}};
      auto Collect = [&](const clang::Stmt *Where) {
        transform::forEachStmt(Where, [&](const clang::Stmt *S) {
          const auto *Read = llvm::dyn_cast<clang::ArraySubscriptExpr>(S);
          if (!Read || Read == Target || subscriptBase(*Read) != Array || !readAsValue(*Read, Ctx))
            return;
          llvm::Expected<IndexPoly> At = Builder.build(Read->getIdx());
          if (!At) {
            llvm::consumeError(At.takeError());
            return;
          }
          if (*At == Previous)
            Found.Reads.push_back(Read);
        });
      };
      for (size_t Before = 0; Before < K; ++Before)
        Collect(Statements[Before]);
      Collect(Store->getRHS());
      if (!Found.Reads.empty())
        Out.push_back(std::move(Found));
    }
  }
};

} // namespace

std::vector<CarriedStore> findCarriedStores(const clang::FunctionDecl &Kernel,
                                            clang::ASTContext &Ctx) {
  std::vector<CarriedStore> Out;
  if (!Kernel.hasBody())
    return Out;
  LoopScan Scan{Ctx, Kernel, {}, {}};
  transform::forEachStmt(Kernel.getBody(), [&](const clang::Stmt *S) {
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S)) {
      Scan.Loops.push_back(For);
      if (const clang::VarDecl *C = counterOf(*For))
        Scan.Counters.push_back(C);
    }
  });
  for (const clang::ForStmt *For : Scan.Loops)
    Scan.storesOf(*For, Out);
  return Out;
}

} // namespace kopt::frontend
