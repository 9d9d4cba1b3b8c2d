#include "clang-plugin/analysis/FlagStores.h"

#include "clang-plugin/analysis/ast/AstWalk.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

#include <set>

namespace kopt::frontend {

namespace {

// Whether E has the same value in every thread and at every point of the
// kernel: literals, enumerators and the scalar parameters not in Changed, under
// operators that neither read memory nor assign.
bool threadInvariant(const clang::Expr *E, const std::set<const clang::VarDecl *> &Changed) {
  bool Invariant = transform::computesOnly(E);
  transform::forEachStmt(E, [&](const clang::Stmt *S) {
    if (llvm::isa<clang::MemberExpr, clang::LambdaExpr, clang::StmtExpr>(S))
      Invariant = false; // threadIdx.x and the like vary; so may anything a lambda computes.
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S)) {
      const clang::ValueDecl *D = Ref->getDecl();
      if (llvm::isa<clang::EnumConstantDecl>(D))
        return;
      const auto *Param = llvm::dyn_cast<clang::ParmVarDecl>(D);
      Invariant = Invariant && Param && !Param->getType()->isPointerType() &&
                  !Param->getType()->isReferenceType() && !Changed.count(Param);
    }
  });
  return Invariant;
}

// The store `*P = v` or `P[c] = v` whose target's base is Ref, as a statement
// of its own (its value unused); null otherwise.
const clang::BinaryOperator *storeThrough(const clang::DeclRefExpr &Ref, clang::ASTContext &Ctx) {
  const clang::Stmt *Target = transform::parentPastParensAndCasts(&Ref, Ctx);
  const auto *Deref = llvm::dyn_cast_or_null<clang::UnaryOperator>(Target);
  const auto *Sub = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(Target);
  // *P or P[c]; not &P, P + 1, or i[P] (P inside the index).
  if (!(Deref && Deref->getOpcode() == clang::UO_Deref) &&
      !(Sub && Sub->getBase()->IgnoreParenImpCasts() == &Ref))
    return nullptr;
  const auto *Assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      transform::parentPastParensAndCasts(Target, Ctx));
  if (!Assign || Assign->getOpcode() != clang::BO_Assign ||
      Assign->getLHS()->IgnoreParens() != Target)
    return nullptr;
  const clang::Stmt *Above = transform::parentOf(Assign, Ctx);
  return llvm::isa_and_nonnull<clang::Expr>(Above) ? nullptr : Assign;
}

// The address's index: 0 for *P, c for P[c].
const clang::Expr *indexOf(const clang::BinaryOperator &Store) {
  const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(Store.getLHS()->IgnoreParens());
  return Sub ? Sub->getIdx() : nullptr;
}

// Whether two stores write the same value to the same place.
bool sameStore(const clang::BinaryOperator &A, const clang::BinaryOperator &B,
               const clang::ASTContext &Ctx) {
  const clang::Expr *IndexA = indexOf(A), *IndexB = indexOf(B);
  bool SameIndex =
      IndexA && IndexB ? transform::sameExpr(*IndexA, *IndexB, Ctx) : !IndexA && !IndexB;
  return SameIndex && transform::sameExpr(*A.getRHS(), *B.getRHS(), Ctx);
}

bool insideLoop(const clang::Stmt *S, const clang::Stmt *Body, clang::ASTContext &Ctx) {
  for (const clang::Stmt *P = transform::parentOf(S, Ctx); P && P != Body;
       P = transform::parentOf(P, Ctx))
    if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(P))
      return true;
  return false;
}

} // namespace

std::vector<FlagStore> findFlagStores(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx) {
  std::vector<FlagStore> Out;
  const clang::Stmt *Body = Kernel.getBody();
  if (!Body)
    return Out;
  const std::set<const clang::VarDecl *> Changed = transform::changedVariables(Body);
  for (const clang::ParmVarDecl *P : Kernel.parameters()) {
    clang::QualType Pointee =
        P->getType()->isPointerType() ? P->getType()->getPointeeType() : clang::QualType();
    if (Pointee.isNull() || Pointee.isConstQualified() || Pointee.isVolatileQualified() ||
        !Pointee->isScalarType() || Changed.count(P))
      continue;
    FlagStore F{P, {}};
    bool Only = true, Looped = false;
    transform::forEachStmt(Body, [&](const clang::Stmt *S) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
      if (!Ref || Ref->getDecl() != P || !Only)
        return;
      const clang::BinaryOperator *Store = storeThrough(*Ref, Ctx);
      const clang::Expr *Index = Store ? indexOf(*Store) : nullptr;
      if (!Store || !threadInvariant(Store->getRHS(), Changed) ||
          (Index && !threadInvariant(Index, Changed)) ||
          (!F.Stores.empty() && !sameStore(*F.Stores.front(), *Store, Ctx))) {
        Only = false;
        return;
      }
      F.Stores.push_back(Store);
      Looped = Looped || insideLoop(Store, Body, Ctx);
    });
    if (Only && Looped) // Every reference to P was visited above, each a store.
      Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace kopt::frontend
