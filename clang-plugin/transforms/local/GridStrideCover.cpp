// grid-stride-cover: a grid-stride loop becomes one iteration a thread, over a
// grid that covers the loop's range. Code written to run on any grid,
//   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
//        i += blockDim.x * gridDim.x) { ... }
// is, once the grid has ceil(n / blockDim.x) blocks, the guarded kernel
//   { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { ... } }
// that the idiom transforms (row-cooperative, inner-loop-parallel,
// loop-to-grid, register-blocking, ...) take. Each index still runs exactly
// once, in a thread of its own.
//
// Exact where the iterations share nothing but memory: the loop is the
// kernel's last statement and only declarations without effects come before
// it (more threads run them); the body changes no variable declared outside
// it, has no break or continue of this loop, and the counter is not changed
// in it; gridDim is read only in the stride; the bound is made of constants
// and integer parameters the kernel never changes (the launch computes the
// grid from it); no barriers, shared memory or warp intrinsics.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GlobalIndex.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/parallel/LoopWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

namespace kopt::transform {

namespace {

// E itself, or the initializer of the unchanged local E names.
const clang::Expr *valueOf(const clang::Expr *E, const std::set<const clang::VarDecl *> &Changed) {
  const clang::VarDecl *V = namedVariable(E);
  if (V && !llvm::isa<clang::ParmVarDecl>(V) && V->hasLocalStorage() && V->getInit() &&
      !Changed.count(V))
    return V->getInit()->IgnoreParenImpCasts();
  return E->IgnoreParenImpCasts();
}

// The bound as the launch mapping can evaluate it: integer constants (macros
// folded) and unchanged integer parameters, under + - * /.
std::optional<std::string> boundText(const clang::Expr *E, const UnitAST &U,
                                     const std::set<const clang::VarDecl *> &Changed) {
  E = E->IgnoreParenImpCasts();
  if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(U.Ctx))
    return std::to_string(C->getSExtValue());
  if (const auto *P = llvm::dyn_cast_or_null<clang::ParmVarDecl>(namedVariable(E)))
    if (P->getType()->isIntegerType() && !Changed.count(P))
      return P->getName().str();
  const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E);
  if (!Bin || !(Bin->getOpcode() == clang::BO_Add || Bin->getOpcode() == clang::BO_Sub ||
                Bin->getOpcode() == clang::BO_Mul || Bin->getOpcode() == clang::BO_Div))
    return std::nullopt;
  std::optional<std::string> L = boundText(Bin->getLHS(), U, Changed);
  std::optional<std::string> R = boundText(Bin->getRHS(), U, Changed);
  if (!L || !R)
    return std::nullopt;
  return "(" + *L + " " + Bin->getOpcodeStr().str() + " " + *R + ")";
}

bool containsReturn(const clang::Stmt *S) {
  bool Found = false;
  forEachStmt(S, [&](const clang::Stmt *C) {
    Found |= llvm::isa<clang::ReturnStmt>(C) || llvm::isa<clang::GotoStmt>(C);
  });
  return Found;
}

// A return anywhere, or a break or continue of the loop itself (not of a
// loop inside it; a switch's break counts, conservatively): each skips the thread's later
// iterations, which other threads would run once the grid covers the range.
bool leavesLoop(const clang::Stmt *S) {
  if (!S)
    return false;
  if (llvm::isa<clang::ReturnStmt>(S) || llvm::isa<clang::BreakStmt>(S) ||
      llvm::isa<clang::ContinueStmt>(S) || llvm::isa<clang::GotoStmt>(S))
    return true;
  bool InnerLoop =
      llvm::isa<clang::ForStmt>(S) || llvm::isa<clang::WhileStmt>(S) || llvm::isa<clang::DoStmt>(S);
  for (const clang::Stmt *Child : S->children()) {
    if (!Child)
      continue;
    // A nested loop owns its breaks and continues (not its returns).
    if (InnerLoop ? containsReturn(Child) : leavesLoop(Child))
      return true;
  }
  return false;
}

struct Cover {
  std::string Bound; // For the launch mapping.
};

llvm::Expected<Cover> rewrite(UnitAST &U) {
  llvm::Expected<GlobalIndexShape> Shape = findGlobalIndexShape(U);
  if (!Shape)
    return Shape.takeError();
  const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(U.Kernel.getBody());
  if (!Shape->GridStride || !Body)
    return unsupported(U, U.Kernel.getLocation(), "the kernel has no grid-stride loop");
  // The loop is the last statement; before it only declarations without effects.
  const clang::ForStmt *Loop = nullptr;
  for (const clang::Stmt *S : Body->body()) {
    if (Loop) {
      if (!llvm::isa<clang::NullStmt>(S))
        return unsupported(U, S->getBeginLoc(),
                           "a statement after the grid-stride loop (it would run in every thread)");
      continue;
    }
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S)) {
      Loop = For;
      continue;
    }
    if (!isInertDecl(*S))
      return unsupported(U, S->getBeginLoc(),
                         "a statement before the grid-stride loop that is not an inert "
                         "declaration (more threads would run it)");
  }
  if (!Loop)
    return unsupported(U, U.Kernel.getLocation(),
                       "the grid-stride loop is not the kernel's last "
                       "statement");
  std::set<const clang::VarDecl *> Changed = changedVariables(Body);

  // for (T i = G; i < B; i += blockDim.x * gridDim.x)
  const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(Loop->getInit());
  const auto *I = Init && Init->isSingleDecl()
                      ? llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl())
                      : nullptr;
  if (!I || !I->getInit() || !I->getType()->isIntegerType())
    return unsupported(U, Loop->getBeginLoc(), "the loop does not declare an integer counter");
  const clang::Expr *Start = valueOf(I->getInit(), Changed);
  const auto *StartSum = llvm::dyn_cast<clang::BinaryOperator>(Start);
  if (!StartSum || positionSumDim(*StartSum) != 'x')
    return unsupported(U, I->getInit()->getBeginLoc(),
                       "the counter does not start at blockIdx.x * blockDim.x + threadIdx.x");
  const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      Loop->getCond() ? Loop->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != clang::BO_LT || namedVariable(Cond->getLHS()) != I)
    return unsupported(U, Loop->getBeginLoc(), "the loop's test is not 'counter < bound'");
  std::optional<std::string> Bound = boundText(Cond->getRHS(), U, Changed);
  if (!Bound)
    return unsupported(U, Cond->getRHS()->getBeginLoc(),
                       "the bound is not made of constants and integer parameters the kernel "
                       "never changes");
  const clang::Expr *Step = nullptr;
  if (const auto *Add = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(Loop->getInc());
      Add && Add->getOpcode() == clang::BO_AddAssign && namedVariable(Add->getLHS()) == I)
    Step = Add->getRHS();
  if (const auto *Set = llvm::dyn_cast_or_null<clang::BinaryOperator>(Loop->getInc());
      Set && Set->getOpcode() == clang::BO_Assign && namedVariable(Set->getLHS()) == I)
    if (const auto *Sum =
            llvm::dyn_cast<clang::BinaryOperator>(Set->getRHS()->IgnoreParenImpCasts());
        Sum && Sum->getOpcode() == clang::BO_Add && namedVariable(Sum->getLHS()) == I)
      Step = Sum->getRHS();
  if (!Step || !isGridStrideProduct(valueOf(Step, Changed)))
    return unsupported(U, Loop->getBeginLoc(),
                       "the step is not 'counter += blockDim.x * gridDim.x'");
  // gridDim only in the stride: the loop's step, or the local it is kept in.
  unsigned Strides = 0;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    if (const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(S); Mul && isGridStrideProduct(Mul))
      ++Strides;
  });
  if (Strides != 1)
    return unsupported(U, Loop->getBeginLoc(), "gridDim is read outside the loop's stride");
  const clang::Stmt *LoopBody = Loop->getBody();
  std::set<const clang::VarDecl *> ChangedInside = changedVariables(LoopBody);
  if (ChangedInside.count(I))
    return unsupported(U, Loop->getBeginLoc(), "the loop changes its counter");
  std::set<const clang::VarDecl *> DeclaredInside = declaredIn(LoopBody);
  for (const clang::VarDecl *V : ChangedInside)
    if (!DeclaredInside.count(V))
      return unsupported(U, V->getLocation(),
                         "the loop carries '" + V->getName() + "' from one iteration to the next");
  if (leavesLoop(LoopBody))
    return unsupported(U, LoopBody->getBeginLoc(),
                       "a return, break or continue in the grid-stride loop (it would skip the "
                       "thread's later iterations, which other threads run once the grid covers "
                       "the range)");

  // T i = G; if (i < B) BODY: the body's text stays as it is.
  // The start as the position itself, where a local kept it (`int i = idx`
  // would hide the index from the transforms after this one).
  llvm::Expected<std::string> StartText = exprText(U, *Start);
  llvm::Expected<std::string> CondText = exprText(U, *Loop->getCond());
  if (!StartText)
    return StartText.takeError();
  if (!CondText)
    return CondText.takeError();
  llvm::Expected<clang::CharSourceRange> Head =
      fileRange(U, {Loop->getBeginLoc(), Loop->getRParenLoc()});
  llvm::Expected<clang::CharSourceRange> Whole = statementRange(U, *LoopBody);
  if (!Head)
    return Head.takeError();
  if (!Whole)
    return Whole.takeError();
  // A local that keeps the start or the stride, read nowhere else, goes with
  // the loop (later transforms would read gridDim in the stride, and nvcc
  // would warn of an unused local).
  auto DropLocal = [&](const clang::Expr *Use) -> llvm::Error {
    const clang::VarDecl *V = namedVariable(Use);
    if (!V || V == I)
      return llvm::Error::success();
    const clang::DeclStmt *Decl = nullptr;
    for (const clang::Stmt *S : Body->body())
      if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S);
          DS && DS->isSingleDecl() && DS->getSingleDecl() == V)
        Decl = DS;
    if (!Decl || countRefs(Body, V) != 1)
      return llvm::Error::success();
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, *Decl);
    if (!Range)
      return Range.takeError();
    U.Rewrite.ReplaceText(*Range, "");
    return llvm::Error::success();
  };
  if (llvm::Error E = DropLocal(Step))
    return E;
  if (llvm::Error E = DropLocal(I->getInit()))
    return E;
  // The kernel's last statement, so the counter may join the body's scope
  // (the guarded form the idiom transforms expect) unless a name is taken.
  bool NameTaken = false;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : DS->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D))
          NameTaken |= V != I && V->getName() == I->getName();
  });
  for (const clang::ParmVarDecl *P : U.Kernel.parameters())
    NameTaken |= P->getName() == I->getName();
  U.Rewrite.ReplaceText(*Head, std::string(NameTaken ? "{ " : "") + typeText(I->getType(), U) +
                                   " " + I->getName().str() + " = " + *StartText + "; if (" +
                                   *CondText + ")");
  if (NameTaken)
    U.Rewrite.InsertTextAfter(Whole->getEnd(), " }");
  return Cover{*Bound};
}

class GridStrideCover : public Transform {
public:
  llvm::StringRef id() const override { return "grid-stride-cover"; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fits1DGuarded(Kernel); !F)
      return F.offer();
    if (!mayHaveGridStrideLoop(Kernel))
      return Offer::no("the kernel has no grid-stride loop");
    if (Fit F = analysedAtInstantiation(Kernel); !F)
      return F.offer();
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    if (Fit F = fits1DGuarded(In.Kernel); !F)
      return llvm::createStringError(F.whyNot());
    llvm::Expected<RewrittenWith<Cover>> Made =
        rewriteUnitWith<Cover>(In, [](UnitAST &U) { return rewrite(U); });
    if (!Made)
      return Made.takeError();
    // Enough blocks for the range, and one where it is empty (a grid of 0
    // fails to launch; the original's threads would have found nothing to do).
    const std::string Blocks = "((" + Made->Found.Bound + ") + block_x - 1) / block_x";
    frontend::LaunchMapping Launch;
    Launch.Grid = {Blocks + " > 0 ? " + Blocks + " : 1", "grid_y", "grid_z"};
    return TransformOutput{std::move(Made->UnitText), Launch,
                           "one iteration a thread: the grid covers the loop's " +
                               Made->Found.Bound + " iterations"};
  }
};
} // namespace

std::unique_ptr<Transform> makeGridStrideCoverTransform() {
  return std::make_unique<GridStrideCover>();
}

} // namespace kopt::transform
