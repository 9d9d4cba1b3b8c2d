#include "clang-plugin/transforms/matmul/MatmulIdiom.h"

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <set>

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
    // A whole access (A[i][k], not its row A[i]) whose subscripts name V.
    if (!E->getType()->isArrayType() && mentionsThroughLocals(E, V))
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

// Whether E reads the thread's position in Dim other than through K (the
// loop's counter, which starts at the row in a triangular loop).
bool readsPositionBesides(const clang::Stmt *S, char Dim, const clang::VarDecl *K) {
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
    return Ref->getDecl() != K && readsThreadPosition(Ref, Dim);
  if (const auto *E = llvm::dyn_cast<clang::Expr>(S); E && frontend::asIndexBuiltin(E))
    return readsThreadPosition(E, Dim);
  for (const clang::Stmt *Child : S->children())
    if (Child && readsPositionBesides(Child, Dim, K))
      return true;
  return false;
}

// The one dimension (x or y) whose thread position E reads, or 0.
char positionDim(const clang::Expr *E, const clang::VarDecl *K) {
  bool X = readsPositionBesides(E, 'x', K), Y = readsPositionBesides(E, 'y', K);
  return X == Y ? 0 : X ? 'x' : 'y';
}

// The term a body adds to its accumulator: X in `acc += X`, `acc = acc + X`
// or `acc = X + acc`, the body being that statement alone.
const clang::Expr *addedTerm(const clang::Stmt *Body) {
  if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Body))
    Body = Block->size() == 1 ? Block->body_front() : nullptr;
  const auto *Update = llvm::dyn_cast_or_null<clang::BinaryOperator>(Body);
  if (!Update)
    return nullptr;
  if (Update->getOpcode() == clang::BO_AddAssign)
    return Update->getRHS();
  const clang::VarDecl *Acc = namedVariable(Update->getLHS());
  const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(Update->getRHS()->IgnoreParenImpCasts());
  if (Update->getOpcode() != clang::BO_Assign || !Acc || !Add || Add->getOpcode() != clang::BO_Add)
    return nullptr;
  if (namedVariable(Add->getLHS()) == Acc && !mentionsThroughLocals(Add->getRHS(), Acc))
    return Add->getRHS();
  if (namedVariable(Add->getRHS()) == Acc && !mentionsThroughLocals(Add->getLHS(), Acc))
    return Add->getLHS();
  return nullptr;
}

bool isProductOf(const clang::Stmt *Body, const clang::Expr *A, const clang::Expr *B) {
  const clang::Expr *Term = addedTerm(Body);
  const auto *Mul =
      llvm::dyn_cast_or_null<clang::BinaryOperator>(Term ? Term->IgnoreParenImpCasts() : nullptr);
  if (!Mul || Mul->getOpcode() != clang::BO_Mul)
    return false;
  const clang::Expr *L = Mul->getLHS()->IgnoreParenImpCasts();
  const clang::Expr *R = Mul->getRHS()->IgnoreParenImpCasts();
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  return (L == A && R == B) || (L == B && R == A);
}

// A factor the loop does not change and that is the same for every thread:
// it only computes, from variables the loop does not change.
bool invariantFactor(const UnitAST &U, const clang::Expr *E, const clang::ForStmt &Loop,
                     const std::set<const clang::VarDecl *> &Changed) {
  if (!computesOnly(E) || E->HasSideEffects(U.Ctx) || readsThreadPosition(E, 'x') ||
      readsThreadPosition(E, 'y') || readsThreadPosition(E, 'z'))
    return false;
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  bool Varies = false;
  forEachStmt(E, [&](const clang::Stmt *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (V)
      Varies = Varies || Changed.count(V) || V->hasGlobalStorage() ||
               SM.isPointWithin(V->getLocation(), Loop.getBeginLoc(), Loop.getEndLoc());
  });
  return !Varies;
}

// Access widened by the factors it is multiplied by, as the code groups
// them, that the loop does not change: `alpha * A[i*K+k]` in
// `alpha * A[i*K+k] * B[k*N+j]`. A negation counts as a factor of -1.
const clang::Expr *widenOperand(const UnitAST &U, const clang::Expr *Access,
                                const clang::ForStmt &Loop) {
  std::set<const clang::VarDecl *> Changed = changedVariables(&Loop);
  const clang::Expr *Best = Access, *Cur = Access;
  while (const clang::Stmt *P = parentOf(Cur, U.Ctx)) {
    if (llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr>(P)) {
      Cur = llvm::cast<clang::Expr>(P);
      continue;
    }
    const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(P);
    const auto *Neg = llvm::dyn_cast<clang::UnaryOperator>(P);
    if (Mul && Mul->getOpcode() == clang::BO_Mul &&
        invariantFactor(U, Mul->getLHS() == Cur ? Mul->getRHS() : Mul->getLHS(), Loop, Changed))
      Best = Cur = Mul;
    else if (Neg && Neg->getOpcode() == clang::UO_Minus)
      Best = Cur = Neg;
    else
      break;
  }
  return Best;
}

// Whether S reads threadIdx or blockIdx outside the operands Skip: directly, or
// through a variable declared before the loop (col = blockIdx.x * ... + threadIdx.x)
// that the loop does not change (Changed: the counter, which a triangular loop
// starts at the row, and accumulators, each output's own). A rewrite that
// gives a thread several outputs would read the first one's position for all. The
// place an update writes (C[row * n + col] +=) is each output's own: there only a
// direct read counts, as before.
bool readsPositionOutside(const clang::Stmt *S,
                          const std::vector<const clang::ArraySubscriptExpr *> &Skip,
                          const std::set<const clang::VarDecl *> &Changed, clang::SourceRange Body,
                          const clang::SourceManager &SM, bool Written = false) {
  if (llvm::is_contained(Skip, S))
    return false;
  if (const auto *E = llvm::dyn_cast<clang::Expr>(S))
    if (std::optional<frontend::IndexBuiltin> B = frontend::asIndexBuiltin(E))
      return B->Var == "threadIdx" || B->Var == "blockIdx";
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
        V && !Written && !Changed.count(V) &&
        !SM.isPointWithin(Ref->getDecl()->getLocation(), Body.getBegin(), Body.getEnd()))
      return frontend::dependsOnThreadIndex(Ref);
  if (const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(S);
      Assign && Assign->isAssignmentOp())
    return readsPositionOutside(Assign->getLHS(), Skip, Changed, Body, SM, true) ||
           readsPositionOutside(Assign->getRHS(), Skip, Changed, Body, SM, Written);
  for (const clang::Stmt *Child : S->children())
    if (Child && readsPositionOutside(Child, Skip, Changed, Body, SM, Written))
      return true;
  return false;
}

// More operands than this: a tile each is more shared memory and registers
// than the blocked rewrite should spend.
constexpr size_t MaxOperands = 4;

// Why Loop is not the idiom, or empty.
std::string mismatch(const UnitAST &U, const clang::ForStmt &Loop, MatmulIdiom &Out) {
  std::optional<CountedLoop> K = countedLoop(Loop, U);
  if (!K)
    return "the loop is not 'for (int k = a; k < b; ++k)'";
  StmtContents Contents = inspectStmt(*Loop.getBody());
  if (Contents.Barrier || Contents.Atomic || Contents.WarpIntrinsic || Contents.Control ||
      Contents.Shared || Contents.UserCall)
    return "the loop body synchronizes, leaves early or calls device functions";
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  BodyScan Scan(K->Var);
  Scan.TraverseStmt(const_cast<clang::Stmt *>(Loop.getBody()));
  for (const clang::Expr *W : Scan.Written)
    for (const clang::ArraySubscriptExpr *E : Scan.Subscripts)
      if (W == E)
        return "the loop body writes memory it indexes by k";
  const std::vector<const clang::ArraySubscriptExpr *> &Ops = Scan.Subscripts;
  if (Ops.size() < 2)
    return "the loop body reads fewer than two operands indexed by k";
  if (Ops.size() > MaxOperands)
    return "the loop body reads more than " + std::to_string(MaxOperands) +
           " operands indexed by k";
  unsigned KUses = 0;
  std::vector<char> Dims;
  for (const clang::ArraySubscriptExpr *E : Ops) {
    if (!E->getType()->isArithmeticType())
      return "an operand is not a number";
    if (namesLocalOf(E, Loop.getBody()->getSourceRange(), SM))
      return "an operand uses a variable of the loop body";
    KUses += directUses(E, K->Var);
    Dims.push_back(positionDim(E, K->Var));
  }
  if (KUses != Scan.Uses)
    return "k is used outside the operands' indices";
  if (llvm::is_contained(Dims, 0) || !llvm::is_contained(Dims, 'x') ||
      !llvm::is_contained(Dims, 'y'))
    return "the operands do not follow the thread's row and column";
  if (readsPositionOutside(Loop.getBody(), Ops, changedVariables(&Loop),
                           Loop.getBody()->getSourceRange(), SM))
    return "the loop body reads the thread's position outside its operands";
  // Bounds that follow one position (triangular loops) run over the union of
  // a tile's ranges, each update checked against its own position's range.
  char BoundsDim = 0;
  if (readsThreadIdx(K->Init) || readsThreadIdx(K->Bound)) {
    bool X = readsThreadPosition(K->Init, 'x') || readsThreadPosition(K->Bound, 'x');
    bool Y = readsThreadPosition(K->Init, 'y') || readsThreadPosition(K->Bound, 'y');
    if (X == Y)
      return "the loop's bounds differ between threads other than by the row or the column";
    BoundsDim = X ? 'x' : 'y';
  }
  Out.Loop = &Loop;
  Out.K = *K;
  for (size_t I = 0; I < Ops.size(); ++I)
    Out.Operands.push_back({widenOperand(U, Ops[I], Loop), Ops[I], Dims[I]});
  Out.BoundsDim = BoundsDim;
  Out.PlainProduct =
      Ops.size() == 2 && isProductOf(Loop.getBody(), Out.Operands[0].Value, Out.Operands[1].Value);
  return "";
}
} // namespace

Fit fitsMatmul(const frontend::KernelSummary &Kernel) {
  const frontend::KernelFeatures &F = Kernel.Features;
  if (Fit Fits = dimensionsBetween(Kernel, 2, 3); !Fits)
    return Fits;
  if (Fit Fits = independentThreads(Kernel); !Fits)
    return Fits;
  if (Fit Fits = analysedAtInstantiation(Kernel); !Fits)
    return Fits;
  if (F.Guards.empty())
    return Fit::no("the kernel has no bounds check on its position");
  std::set<std::string> RowsOfArrays; // Parameters that point to rows (float (*)[N]).
  for (const frontend::KernelParam &P : Kernel.Params)
    if (!P.RowExtents.empty())
      RowsOfArrays.insert(P.Name);
  for (size_t L = 0; L < F.Loops.size(); ++L) {
    bool Same = false, Varies = false;
    unsigned Rows = 0, Reads = 0;
    for (const frontend::MemoryAccess &A : F.Accesses)
      if (A.Loop == static_cast<int>(L) && A.Read && !A.Write) {
        Same = Same || A.Pattern == frontend::AccessPattern::Broadcast;
        Varies = Varies || A.Pattern == frontend::AccessPattern::Coalesced ||
                 A.Pattern == frontend::AccessPattern::Strided;
        Rows += RowsOfArrays.count(A.Param);
        ++Reads;
      }
    if (((Same && Varies) || (Rows > 0 && Reads >= 2)) && F.Loops[L].Canonical &&
        F.Loops[L].Step == "1")
      return Fit::yes();
  }
  return Fit::no("no counted loop reads one operand the same for a row of threads and another "
                 "that varies along it (a product's k loop)");
}

bool unitStrideInK(const clang::ArraySubscriptExpr &Access, const clang::VarDecl *K) {
  std::vector<const clang::Expr *> Work = {Access.getIdx()};
  while (!Work.empty()) {
    const clang::Expr *E = Work.back()->IgnoreParenImpCasts();
    Work.pop_back();
    if (const auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(E))
      E = Cast->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E); Ref && Ref->getDecl() == K)
      return true;
    if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
        B && B->getOpcode() == clang::BO_Add) {
      Work.push_back(B->getLHS());
      Work.push_back(B->getRHS());
    }
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
