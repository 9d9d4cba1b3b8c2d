// loop-to-grid: a loop of a 1D kernel whose iterations are independent
// becomes a second grid dimension. Thread j1 of covariance walks j2 from j1 to
// M and sums over the samples for each (j1, j2); here the threads of the
// grid's y dimension deal the j2 iterations out among themselves (j2 starts at
// E0 + the thread's y position and steps by the y threads of the grid), so
// every (j1, j2) output gets its own thread and the sum over samples stays a
// serial loop whose reads are coalesced across j1. Independence is proven, not
// assumed (LoopIndependence.h): no iteration may touch what another writes;
// the symmetric store symm[j2][j1] = symm[j1][j2] is seen to meet its mirror
// only in the same iteration. Variables the loop assigns must be set afresh in
// each iteration and not read after it. Code beside the loop runs in every y
// thread, except memory writes, which the first y thread does; they must not
// meet the loop's accesses, and nothing after the loop may read what it wrote
// (the y threads never wait for each other).
//   ythreads: the y threads of the grid (the launch gets 32 x 8 blocks).
//   loop:     which loop outside all other loops, in source order.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GuardHoisting.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/parallel/CooperativePlan.h"
#include "clang-plugin/transforms/parallel/LoopIndependence.h"
#include "clang-plugin/transforms/parallel/LoopWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/Support/Regex.h>

namespace kopt::transform {

namespace {
constexpr unsigned BlockX = 32, BlockY = 8;
constexpr llvm::StringLiteral FirstY = "blockIdx.y == 0 && threadIdx.y == 0";

bool inside(const UnitAST &U, const clang::Stmt *X, const clang::Stmt *Outer) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  return !SM.isBeforeInTranslationUnit(X->getBeginLoc(), Outer->getBeginLoc()) &&
         !SM.isBeforeInTranslationUnit(Outer->getEndLoc(), X->getBeginLoc());
}

class Planner {
public:
  Planner(UnitAST &AST, const clang::ForStmt &Loop, const LoopCounter &L,
          llvm::ArrayRef<const clang::Expr *> Positions, bool NoAliasClause)
      : U(AST), For(Loop), Counter(L), Indexer(AST, Positions), NoAlias(NoAliasClause) {}

  llvm::Error run() {
    if (inspectStmt(*For.getBody()).Control)
      return unsupported(U, For.getBeginLoc(), "a loop with return, break or continue");
    if (llvm::Error E = checkCounterDead(U, Counter))
      return E;
    if (llvm::Error E = checkVariables())
      return E;
    llvm::Expected<std::vector<PathStep>> Path = pathFromBody(U, outermostLoopStmt(U, For));
    if (!Path)
      return Path.takeError();
    std::vector<IndexedAccess> Outside;
    for (const PathStep &Step : *Path) {
      if (Step.If) {
        if (llvm::Error E = readOnly(Step.If->getCond()))
          return E;
        append(Outside, Indexer.accessesIn(Step.If->getCond()));
        continue;
      }
      bool After = false;
      for (const clang::Stmt *S : Step.Block->body()) {
        if (S == Step.Child) {
          After = true;
          continue;
        }
        if (llvm::Error E = beside(*S, After, Outside))
          return E;
      }
    }
    Ranges Known = Indexer.rangesAt(outermostLoopStmt(U, For));
    std::optional<Linear> Lo = Indexer.linear(Counter.Init), Hi = Indexer.linear(Counter.Bound);
    if (Lo)
      Known.addLower(Counter.Var, *Lo);
    if (Hi)
      Known.addUpper(Counter.Var, Counter.Comparison == "<=" ? *Hi + Linear::constant(1) : *Hi);
    std::vector<IndexedAccess> Inside = Indexer.accessesIn(For.getBody());
    if (llvm::Error E = checkIndependent(U, Counter.Var, Inside, Outside, Known, NoAlias))
      return E;
    for (const IndexedAccess &A : Inside)
      if (A.Write)
        WrittenInLoop.insert(A.Root);
    for (const clang::Stmt *S : LaterReads)
      for (const IndexedAccess &A : Indexer.accessesIn(S))
        if (WrittenInLoop.count(A.Root))
          return unsupported(U, A.At->getBeginLoc(),
                             "code after the loop reads '" + A.Root->getName() +
                                 "', which the loop writes");
    return edit();
  }

private:
  static void append(std::vector<IndexedAccess> &To, std::vector<IndexedAccess> From) {
    To.insert(To.end(), From.begin(), From.end());
  }

  llvm::Error readOnly(const clang::Stmt *S) {
    llvm::Expected<std::vector<Write>> Writes = writesIn(U, S);
    if (!Writes)
      return Writes.takeError();
    if (!Writes->empty())
      return unsupported(U, S->getBeginLoc(), "a condition that assigns");
    return llvm::Error::success();
  }

  // A statement beside the loop: every y thread runs it, unless it writes
  // memory; then the first y thread alone does, and it may assign nothing
  // that others read.
  llvm::Error beside(const clang::Stmt &S, bool After, std::vector<IndexedAccess> &Outside) {
    llvm::Expected<std::vector<Write>> Writes = writesIn(U, &S);
    if (!Writes)
      return Writes.takeError();
    bool Memory = false;
    std::set<const clang::VarDecl *> Mine = declaredIn(&S);
    for (const Write &W : *Writes)
      Memory |= W.Memory;
    append(Outside, Indexer.accessesIn(&S));
    if (After)
      LaterReads.push_back(&S);
    if (!Memory)
      return llvm::Error::success();
    for (const Write &W : *Writes)
      if (!W.Memory && !Mine.count(W.Var))
        return unsupported(U, S.getBeginLoc(),
                           "a statement beside the loop writes memory and assigns a variable");
    if (llvm::isa<clang::DeclStmt>(S) || inspectStmt(S).Control)
      return unsupported(U, S.getBeginLoc(),
                         "a statement beside the loop writes memory and declares or returns");
    FirstYOnly.push_back(&S);
    return llvm::Error::success();
  }

  // What the loop assigns besides memory: its own variables, and variables
  // set afresh in each iteration that nothing after the loop reads.
  llvm::Error checkVariables() {
    llvm::Expected<std::vector<Write>> Writes = writesIn(U, For.getBody());
    if (!Writes)
      return Writes.takeError();
    std::set<const clang::VarDecl *> Locals = declaredIn(For.getBody());
    for (const Write &W : *Writes) {
      if (W.Memory || Locals.count(W.Var))
        continue;
      if (W.Var == Counter.Var)
        return unsupported(U, W.At->getBeginLoc(), "the loop assigns its own counter");
      if (llvm::Error E = checkFresh(W.Var))
        return E;
    }
    return llvm::Error::success();
  }

  // V is the counter of loops in the body that set it first (int i; for (i =
  // 0; ...)), or is assigned at the top of the body before anything reads it;
  // and no code after the loop reads it.
  llvm::Error checkFresh(const clang::VarDecl *V) {
    LoopCounter AsCounter{V, nullptr, nullptr, "<", false};
    if (llvm::Error E = checkCounterDead(U, AsCounter))
      llvm::consumeError(std::move(E));
    else
      return llvm::Error::success();
    const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(For.getBody());
    const clang::Stmt *First = nullptr;
    forEachStmt(For.getBody(), [&](const clang::Stmt *X) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X);
      if (Ref && Ref->getDecl() == V && !First)
        First = Ref;
    });
    const auto *Set =
        First ? llvm::dyn_cast_or_null<clang::BinaryOperator>(parentOf(First, U.Ctx)) : nullptr;
    bool Fresh = Set && Body && Set->getOpcode() == clang::BO_Assign && Set->getLHS() == First &&
                 !mentions(Set->getRHS(), V);
    if (Fresh) {
      bool TopLevel = false;
      for (const clang::Stmt *S : Body->body())
        TopLevel |= S == Set;
      Fresh = TopLevel;
    }
    if (!Fresh)
      return unsupported(U, For.getBeginLoc(),
                         "the loop carries '" + V->getName() + "' from one iteration to the next");
    std::optional<clang::SourceLocation> Later;
    forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X);
      if (Ref && Ref->getDecl() == V && !inside(U, Ref, &For) &&
          U.Ctx.getSourceManager().isBeforeInTranslationUnit(For.getEndLoc(), Ref->getBeginLoc()))
        Later = Ref->getBeginLoc();
    });
    if (Later)
      return unsupported(U, *Later, "'" + V->getName() + "' is read after the loop, which sets it");
    return llvm::Error::success();
  }

  llvm::Error edit() {
    const clang::Expr *Inc = For.getInc();
    if (Counter.Init->getBeginLoc().isMacroID() || Counter.Init->getEndLoc().isMacroID() ||
        Inc->getBeginLoc().isMacroID() || Inc->getEndLoc().isMacroID())
      return unsupported(U, For.getBeginLoc(), "the loop's header comes from a macro");
    std::string T = typeText(Counter.Var->getType(), U);
    U.Rewrite.InsertTextBefore(Counter.Init->getBeginLoc(), "(");
    U.Rewrite.InsertTextAfterToken(Counter.Init->getEndLoc(),
                                   ") + (" + T + ")(blockIdx.y * blockDim.y + threadIdx.y)");
    U.Rewrite.ReplaceText(Inc->getSourceRange(),
                          Counter.Var->getName().str() + " += (" + T + ")(gridDim.y * blockDim.y)");
    for (const clang::Stmt *S : FirstYOnly) {
      llvm::Expected<clang::CharSourceRange> Range = statementRange(U, *S);
      if (!Range)
        return Range.takeError();
      U.Rewrite.InsertTextBefore(Range->getBegin(), "if (" + FirstY.str() + ") {\n");
      U.Rewrite.InsertTextAfter(Range->getEnd(), "\n}");
    }
    return llvm::Error::success();
  }

  UnitAST &U;
  const clang::ForStmt &For;
  LoopCounter Counter;
  AccessIndexer Indexer;
  bool NoAlias;
  std::vector<const clang::Stmt *> FirstYOnly, LaterReads;
  std::set<const clang::VarDecl *> WrittenInLoop;
};

class LoopToGrid : public Transform {
public:
  llvm::StringRef id() const override { return "loop-to-grid"; }

  std::vector<ParamDecl> params() const override {
    return {{"loop", {}, /*Min=*/0}, {"ythreads", {64, 128, 256, 512, 1024, 2048, 4096, 8192}}};
  }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fits(Kernel); !F)
      return F.offer();
    std::vector<ParamSet> Space;
    int64_t Loop = -1;
    const std::vector<frontend::LoopFeature> &Loops = Kernel.Features.Loops;
    for (size_t N = 0; N < Loops.size(); ++N) {
      const frontend::LoopFeature &L = Loops[N];
      if (L.Depth != 0 || L.LoopKind != frontend::LoopFeature::Kind::For)
        continue;
      ++Loop;
      if (!worthGrid(Kernel, N))
        continue;
      // Enough y threads for every iteration where the pragma tells the trip
      // count, else a few sizes.
      std::optional<int64_t> Trip = pragmaIntValue(Kernel, L.Bound);
      std::vector<int64_t> Sizes = {1024, 256};
      if (Trip)
        Sizes = {std::clamp<int64_t>(roundUp(*Trip), 64, 8192),
                 std::clamp<int64_t>(roundUp(*Trip) / 4, 64, 8192)};
      for (int64_t Y : Sizes)
        if (std::find(Space.begin(), Space.end(), ParamSet{{"loop", Loop}, {"ythreads", Y}}) ==
            Space.end())
          Space.push_back({{"loop", Loop}, {"ythreads", Y}});
    }
    if (Space.empty())
      return Offer::no("no outermost for loop holds a loop or writes an element that moves with "
                       "its counter (a loop of outputs rather than one sum)");
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Which = Params.at("loop"), YThreads = Params.at("ythreads");
    if (Fit F = fits(In.Kernel); !F)
      return llvm::createStringError(F.whyNot());
    unsigned Line = 0;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      llvm::Expected<std::vector<const clang::Expr *>> Positions = xPositions(AST);
      if (!Positions)
        return Positions.takeError();
      std::vector<const clang::ForStmt *> Loops = outerLoops(AST);
      if (static_cast<size_t>(Which) >= Loops.size())
        return llvm::createStringError("the kernel has no loop %lld outside all other loops",
                                       static_cast<long long>(Which));
      const clang::ForStmt &For = *Loops[Which];
      std::optional<LoopCounter> L = loopCounter(For, AST);
      if (!L)
        return unsupported(AST, For.getBeginLoc(),
                           "a loop that is not for (int j = E0; j < E1; j++)");
      Line = AST.line(For.getBeginLoc());
      Planner Plan(AST, For, *L, *Positions, In.Kernel.Pragma && In.Kernel.Pragma->NoAlias);
      return Plan.run();
    });
    if (!Text)
      return Text.takeError();
    frontend::LaunchMapping Launch;
    Launch.Block = {std::to_string(BlockX), std::to_string(BlockY), "1"};
    Launch.Grid[0] =
        "(grid_x * block_x + " + std::to_string(BlockX - 1) + ") / " + std::to_string(BlockX);
    Launch.Grid[1] = std::to_string(YThreads / BlockY);
    return TransformOutput{std::move(*Text), Launch,
                           "the loop at line " + std::to_string(Line) + " over " +
                               std::to_string(YThreads) + " y threads of the grid"};
  }

private:
  static int64_t roundUp(int64_t N) {
    int64_t P = 64;
    while (P < N && P < 8192)
      P *= 2;
    return P;
  }

  // Whether the outermost loop Loops[N] holds a loop, or writes an element
  // that moves with its counter: a loop of outputs rather than one sum.
  static bool worthGrid(const frontend::KernelSummary &Kernel, size_t N) {
    const std::vector<frontend::LoopFeature> &Loops = Kernel.Features.Loops;
    size_t End = N + 1;
    while (End < Loops.size() && Loops[End].Depth > 0)
      ++End;
    if (End > N + 1)
      return true;
    llvm::Regex Counter("(^|[^A-Za-z0-9_])" + llvm::Regex::escape(Loops[N].InductionVar) +
                        "([^A-Za-z0-9_]|$)");
    for (const frontend::MemoryAccess &A : Kernel.Features.Accesses)
      if (A.Write && A.Loop == static_cast<int>(N) && !Loops[N].InductionVar.empty() &&
          Counter.match(A.Index))
        return true;
    return false;
  }

  static Fit fits(const frontend::KernelSummary &Kernel) {
    if (Fit F = cooperativeFit(Kernel); !F)
      return F;
    if (Fit F = dimensionsBetween(Kernel, 1, 1); !F)
      return F;
    if (Kernel.Features.Loops.empty())
      return Fit::no("the kernel has no loop");
    return Fit::yes();
  }
};
} // namespace

std::unique_ptr<Transform> makeLoopToGridTransform() { return std::make_unique<LoopToGrid>(); }

} // namespace kopt::transform
