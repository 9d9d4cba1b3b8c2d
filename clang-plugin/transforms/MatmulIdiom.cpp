#include "clang-plugin/transforms/MatmulIdiom.h"

#include "clang-plugin/analysis/IndexAnalysis.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace kopt::transform {

namespace {
struct LoopCollector : clang::RecursiveASTVisitor<LoopCollector> {
  bool VisitForStmt(clang::ForStmt *S) {
    Loops.push_back(S);
    return true;
  }
  std::vector<const clang::ForStmt *> Loops;
};

// The subscripts in S whose index names V, the places S names V directly,
// and the expressions S writes.
struct BodyScan : clang::RecursiveASTVisitor<BodyScan> {
  explicit BodyScan(const clang::VarDecl *Var) : V(Var) {}
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    if (frontend::referencesVar(E->getIdx(), V))
      Subscripts.push_back(E);
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (E->getDecl() == V)
      ++Uses;
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (E->isAssignmentOp())
      Written.push_back(E->getLHS()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *E) {
    if (E->isIncrementDecrementOp())
      Written.push_back(E->getSubExpr()->IgnoreParenImpCasts());
    return true;
  }
  const clang::VarDecl *V;
  std::vector<const clang::ArraySubscriptExpr *> Subscripts;
  std::vector<const clang::Expr *> Written;
  unsigned Uses = 0;
};

unsigned directUses(const clang::Stmt *S, const clang::VarDecl *V) {
  if (!S)
    return 0;
  unsigned N = 0;
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S); Ref && Ref->getDecl() == V)
    ++N;
  for (const clang::Stmt *Child : S->children())
    N += directUses(Child, V);
  return N;
}

// Whether E names a variable declared inside Range (the loop's own locals).
bool namesLocalOf(const clang::Stmt *S, clang::SourceRange Range, const clang::SourceManager &SM) {
  if (!S)
    return false;
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
    if (SM.isPointWithin(Ref->getDecl()->getLocation(), Range.getBegin(), Range.getEnd()))
      return true;
  for (const clang::Stmt *Child : S->children())
    if (namesLocalOf(Child, Range, SM))
      return true;
  return false;
}

// The one dimension (x or y) whose thread position E reads, or 0.
char positionDim(const clang::Expr *E) {
  bool X = readsThreadPosition(E, 'x'), Y = readsThreadPosition(E, 'y');
  return X == Y ? 0 : X ? 'x' : 'y';
}

bool isProductOf(const clang::Stmt *Body, const clang::Expr *A, const clang::Expr *B) {
  if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Body))
    Body = Block->size() == 1 ? Block->body_front() : nullptr;
  const auto *Acc = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(Body);
  if (!Acc || Acc->getOpcode() != clang::BO_AddAssign)
    return false;
  const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(Acc->getRHS()->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != clang::BO_Mul)
    return false;
  const clang::Expr *L = Mul->getLHS()->IgnoreParenImpCasts();
  const clang::Expr *R = Mul->getRHS()->IgnoreParenImpCasts();
  return (L == A && R == B) || (L == B && R == A);
}

// Why Loop is not the idiom, or empty.
std::string mismatch(const UnitAST &U, const clang::ForStmt &Loop, MatmulIdiom &Out) {
  std::optional<CountedLoop> K = countedLoop(Loop, U);
  if (!K)
    return "the loop is not 'for (int k = a; k < b; ++k)'";
  if (readsThreadIdx(K->Init) || readsThreadIdx(K->Bound))
    return "the loop's bounds differ between threads";
  StmtContents Contents = inspectStmt(*Loop.getBody());
  if (Contents.Barrier || Contents.Atomic || Contents.WarpIntrinsic || Contents.Control ||
      Contents.Shared || Contents.UserCall)
    return "the loop body synchronizes, leaves early or calls device functions";
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  BodyScan Scan(K->Var);
  Scan.TraverseStmt(const_cast<clang::Stmt *>(Loop.getBody()));
  if (Scan.Subscripts.size() != 2)
    return "the loop body does not read exactly two operands indexed by k";
  const clang::ArraySubscriptExpr *A = Scan.Subscripts[0], *B = Scan.Subscripts[1];
  if (directUses(A->getIdx(), K->Var) + directUses(B->getIdx(), K->Var) != Scan.Uses)
    return "k is used outside the two operands' indices";
  for (const clang::Expr *W : Scan.Written)
    if (W == A || W == B)
      return "the loop body writes an operand";
  if (namesLocalOf(A, Loop.getBody()->getSourceRange(), SM) ||
      namesLocalOf(B, Loop.getBody()->getSourceRange(), SM))
    return "an operand uses a variable of the loop body";
  char DimA = positionDim(A), DimB = positionDim(B);
  if (!DimA || !DimB || DimA == DimB)
    return "the operands do not follow the thread's row and column";
  Out.Loop = &Loop;
  Out.K = *K;
  Out.Row = A;
  Out.Col = B;
  Out.RowDim = DimA;
  Out.ColDim = DimB;
  Out.PlainProduct = isProductOf(Loop.getBody(), A, B);
  return "";
}
} // namespace

bool looksLikeMatmul(const frontend::KernelSummary &Kernel) {
  const frontend::KernelFeatures &F = Kernel.Features;
  if (F.Dimensions < 2 || !F.SharedVariables.empty() || !F.Barriers.empty() ||
      !F.WarpIntrinsics.empty() || F.Guards.empty() || Kernel.IsTemplate)
    return false;
  for (size_t L = 0; L < F.Loops.size(); ++L) {
    bool Same = false, Varies = false;
    for (const frontend::MemoryAccess &A : F.Accesses)
      if (A.Loop == static_cast<int>(L) && A.Read && !A.Write) {
        Same = Same || A.Pattern == frontend::AccessPattern::Broadcast;
        Varies = Varies || A.Pattern == frontend::AccessPattern::Coalesced ||
                 A.Pattern == frontend::AccessPattern::Strided;
      }
    if (Same && Varies && F.Loops[L].Canonical && F.Loops[L].Step == "1")
      return true;
  }
  return false;
}

llvm::Expected<MatmulIdiom> findMatmulIdiom(const UnitAST &U) {
  LoopCollector Collector;
  Collector.TraverseStmt(U.Kernel.getBody());
  std::string FirstMismatch;
  const clang::ForStmt *FirstLoop = nullptr;
  for (const clang::ForStmt *Loop : Collector.Loops) {
    MatmulIdiom Idiom;
    std::string Why = mismatch(U, *Loop, Idiom);
    if (Why.empty())
      return Idiom;
    if (!FirstLoop) {
      FirstLoop = Loop;
      FirstMismatch = Why;
    }
  }
  if (!FirstLoop)
    return unsupported(U, U.Kernel.getLocation(), "the kernel has no for loop");
  return unsupported(U, FirstLoop->getBeginLoc(), "no matmul loop: " + FirstMismatch);
}

} // namespace kopt::transform
