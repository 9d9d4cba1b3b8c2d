#include "clang-plugin/transforms/framework/MemoryAccessScan.h"

#include "clang-plugin/analysis/IndexAnalysis.h"

#include <clang/AST/RecursiveASTVisitor.h>

namespace kopt::transform {

namespace {
struct AccessScan : clang::RecursiveASTVisitor<AccessScan> {
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    if (E->getType()->isArrayType())
      return true; // A row of p[i][j]: the whole access counts.
    MemoryAccess A;
    A.E = E;
    const clang::Expr *Base = E;
    while (const auto *Sub =
               llvm::dyn_cast<clang::ArraySubscriptExpr>(Base->IgnoreParenImpCasts())) {
      A.Indices.insert(A.Indices.begin(), Sub->getIdx());
      Base = Sub->getBase();
    }
    A.Base = Base->IgnoreParenImpCasts();
    note(A, A.Base);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *E) {
    if (E->getOpcode() == clang::UO_Deref) {
      MemoryAccess A;
      A.E = E;
      note(A, E->getSubExpr());
    } else if (E->isIncrementDecrementOp()) {
      Out.Assigned.push_back(E->getSubExpr()->IgnoreParenImpCasts());
    } else if (E->getOpcode() == clang::UO_AddrOf) {
      Out.Assigned.push_back(E->getSubExpr()->IgnoreParenImpCasts()); // Escapes: may change.
    }
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *E) {
    if (E->isArrow() && !frontend::resolvePointerParam(E->getBase()))
      Out.Unknown = Out.Unknown ? Out.Unknown : E;
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (E->isAssignmentOp())
      Out.Assigned.push_back(E->getLHS()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *V) {
    Out.Declared.insert(V);
    return true;
  }

  void finish() {
    std::set<const clang::Expr *> Written(Out.Assigned.begin(), Out.Assigned.end());
    for (MemoryAccess &A : Out.All)
      A.Write = Written.count(A.E) > 0;
    for (const clang::Expr *E : Out.Assigned)
      if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()))
          Out.Declared.insert(V); // Changed in the statement: as good as declared there.
  }

  MemoryAccesses Out;

private:
  void note(MemoryAccess &A, const clang::Expr *Pointer) {
    if (std::optional<frontend::PointerBase> Base = frontend::resolvePointerParam(Pointer)) {
      A.Param = Base->Param;
      Out.All.push_back(A);
      return;
    }
    // A thread's own array (registers or local memory) or shared memory:
    // no parameter reaches it.
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Pointer->IgnoreParenImpCasts());
    const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (V && V->getType()->isArrayType() &&
        (V->hasLocalStorage() || V->hasAttr<clang::CUDASharedAttr>()))
      return;
    if (!Out.Unknown)
      Out.Unknown = A.E;
  }
};
} // namespace

MemoryAccesses scanMemoryAccesses(const clang::Stmt &S) {
  AccessScan Scan;
  Scan.TraverseStmt(const_cast<clang::Stmt *>(&S));
  Scan.finish();
  return std::move(Scan.Out);
}

} // namespace kopt::transform
