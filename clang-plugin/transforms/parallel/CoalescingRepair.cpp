// coalescing-repair: a 1D kernel whose thread i walks its own row (for k:
// ... A[i * S + k] ..., a row apart between neighbouring threads, so a warp's
// 32 loads touch 32 lines) reads each row through a shared-memory tile
// instead: the block loads T = 32 columns of its blockDim.x rows at a time
// with consecutive threads on consecutive columns (one line a row), waits,
// and every thread runs its iterations on its own row of the tile. The loop
// runs on every thread of the block (the barriers need them all: its bounds
// must be the same for all threads, and the bounds checks around it move
// inside, GuardHoisting.h); a row loads only where its thread passes those
// checks, and only the columns the loop reaches. The staged reads must happen
// in every iteration (no if around them), and nothing in the loop may write
// their buffer.
//   block: the threads of a block (the tile is block x 33 elements).
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GlobalIndex.h"
#include "clang-plugin/transforms/framework/GuardHoisting.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/parallel/LoopIndependence.h"
#include "clang-plugin/transforms/parallel/LoopWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::transform {

namespace {
constexpr int64_t Columns = 32;             // T: the columns of a tile.
constexpr int64_t SharedBudget = 48 * 1024; // Static shared memory a block may have.

// A read the tile serves: its buffer and index as i * Stride + k + Rest, and
// every access of that element in the loop.
struct Staged {
  std::vector<const clang::Expr *> At;
  const clang::VarDecl *Param = nullptr;
  Linear Stride, Rest;
  bool TwoD = false; // p[i][k] on a pointer to arrays.
  std::string Type;
};

// The text of a polynomial; Replace gives the text of a variable (or empty:
// its name).
std::string toText(const Linear &L,
                   llvm::function_ref<std::string(const clang::VarDecl *)> Replace) {
  std::string Out;
  for (const auto &[M, C] : L.terms()) {
    std::string Term = std::to_string(C < 0 ? -C : C);
    bool One = C == 1 || C == -1;
    std::string Factors;
    for (const clang::VarDecl *V : M) {
      std::string Name = Replace(V);
      Factors += (Factors.empty() ? "" : " * ") + (Name.empty() ? V->getName().str() : Name);
    }
    // Products in 64 bits, as (size_t)i * n: a row offset may pass 2^31.
    if (!Factors.empty())
      Term = One ? (M.size() > 1 ? "(long long)" + Factors : Factors)
                 : "(long long)" + Term + " * " + Factors;
    Out += Out.empty() ? (C < 0 ? "-" + Term : Term) : (C < 0 ? " - " : " + ") + Term;
  }
  return Out.empty() ? "0" : Out;
}

class Planner {
public:
  Planner(UnitAST &AST, const clang::ForStmt &Loop, const LoopCounter &L,
          const clang::VarDecl *Position, llvm::ArrayRef<const clang::Expr *> Sums, bool NoAlias)
      : U(AST), For(Loop), Counter(L), I(Position), Indexer(AST, Sums), NoAliasClause(NoAlias) {}

  llvm::Error run(int64_t Block) {
    if (inspectStmt(*For.getBody()).Control)
      return unsupported(U, For.getBeginLoc(), "a loop with return, break or continue");
    if (llvm::Error E = checkCounterDead(U, Counter))
      return E;
    for (const clang::Expr *B : {Counter.Init, Counter.Bound})
      if (frontend::dependsOnThreadIndex(B) || declaredInLoop(B))
        return unsupported(U, B->getBeginLoc(), "the loop's bounds differ between threads");
    if (llvm::Error E = findStaged())
      return E;
    if (Reads.empty())
      return unsupported(U, For.getBeginLoc(),
                         "the loop reads no row a thread apart (i * S + k) in every iteration");
    int64_t Bytes = 0;
    for (const Staged &S : Reads)
      Bytes += Block * (Columns + 1) *
               static_cast<int64_t>(U.Ctx.getTypeSizeInChars(S.At[0]->getType()).getQuantity());
    if (Bytes > SharedBudget)
      return unsupported(U, For.getBeginLoc(),
                         "the tiles need " + std::to_string(Bytes) +
                             " bytes of shared memory; a smaller block may fit");
    return edit(Block);
  }

private:
  bool declaredInLoop(const clang::Expr *E) const {
    std::set<const clang::VarDecl *> Mine = declaredIn(For.getBody());
    for (const clang::VarDecl *V : Mine)
      if (mentions(E, V))
        return true;
    return false;
  }

  // Whether E is reached in every iteration: only blocks and expressions lie
  // between it and the loop's body, no branch.
  bool everyIteration(const clang::Expr *E) const {
    for (const clang::Stmt *Cur = E; Cur && Cur != For.getBody();) {
      const clang::Stmt *Up = parentOf(Cur, U.Ctx);
      if (!Up || llvm::isa<clang::IfStmt, clang::ConditionalOperator, clang::ForStmt,
                           clang::WhileStmt, clang::DoStmt, clang::SwitchStmt>(Up))
        return false;
      if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(Up); Bin && Bin->isLogicalOp())
        return false;
      Cur = Up;
    }
    return true;
  }

  // The reads of the loop a row apart between threads, and whether the loop
  // may write what they read.
  llvm::Error findStaged() {
    std::vector<IndexedAccess> All = Indexer.accessesIn(For.getBody());
    std::set<const clang::VarDecl *> Written;
    for (const IndexedAccess &A : All)
      if (A.Write)
        Written.insert(A.Root);
    for (const IndexedAccess &A : All) {
      if (A.Write || A.Index.empty() || !llvm::isa<clang::ParmVarDecl>(A.Root))
        continue;
      Staged S;
      S.At = {A.At};
      S.Param = A.Root;
      S.TwoD = A.Index.size() == 2;
      Linear Flat = A.Index.back();
      if (S.TwoD) {
        // p[i + c][k + d]: the row from i alone, the column from k.
        const Linear &Row = A.Index.front();
        if (Row.linearCoefficient(I) != 1 || (Row - Linear::atom(I)).mentions(I) ||
            !Row.without(I).isConstant() || Row.without(I).constantTerm() != 0)
          continue;
        S.Stride = Linear::constant(1);
      } else {
        // i * S + k + rest: S free of i and k, rest free of both.
        Linear WithI = Flat - Flat.without(I);
        for (const auto &[M, C] : WithI.terms()) {
          Monomial Rest = M;
          Rest.erase(std::find(Rest.begin(), Rest.end(), I));
          Linear Part;
          Part.addTerm(Rest, C);
          S.Stride = S.Stride + Part;
        }
        if (S.Stride.mentions(I) || S.Stride.mentions(Counter.Var) || S.Stride.terms().empty() ||
            S.Stride == Linear::constant(1))
          continue;
      }
      Linear Rest = Flat.without(I);
      if (Rest.linearCoefficient(Counter.Var) != 1 ||
          (Rest - Rest.without(Counter.Var)).terms().size() != 1)
        continue;
      S.Rest = Rest.without(Counter.Var);
      if (!invariantText(S.Stride) || !invariantText(S.Rest) || !everyIteration(A.At))
        continue;
      if (Written.count(A.Root))
        return unsupported(U, A.At->getBeginLoc(),
                           "the loop writes '" + A.Root->getName() +
                               "', which it reads a row apart");
      if (!Written.empty() && !NoAliasClause && !A.Root->getType().isRestrictQualified())
        return unsupported(U, A.At->getBeginLoc(),
                           "'" + A.Root->getName() +
                               "' may alias what the loop writes (no noalias clause, not "
                               "__restrict__)");
      S.Type = typeText(A.At->getType(), U);
      auto Same = std::find_if(Reads.begin(), Reads.end(), [&](const Staged &R) {
        return R.Param == S.Param && R.TwoD == S.TwoD && R.Stride == S.Stride && R.Rest == S.Rest;
      });
      if (Same != Reads.end())
        Same->At.push_back(A.At);
      else
        Reads.push_back(S);
    }
    return llvm::Error::success();
  }

  // Whether L names only variables that are the same for every thread and
  // declared before the loop.
  bool invariantText(const Linear &L) const {
    for (const auto &[M, C] : L.terms())
      for (const clang::VarDecl *V : M)
        if (Indexer.assigned(V) || declaredIn(For.getBody()).count(V) ||
            (V->getInit() && frontend::dependsOnThreadIndex(V->getInit())))
          return false;
    return true;
  }

  // The guards with i replaced by the position of tile row kopt_r.
  llvm::Expected<std::string> rowGuards(const std::vector<Guard> &Guards,
                                        const std::string &Row) const {
    std::string Out;
    for (const Guard &G : Guards) {
      std::vector<TextEdit> Edits;
      bool Other = false;
      forEachStmt(G.Cond, [&](const clang::Stmt *X) {
        const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X);
        if (!Ref)
          return;
        if (Ref->getDecl() == I)
          Edits.push_back({Ref->getSourceRange(), "(" + Row + ")"});
        else if (frontend::dependsOnThreadIndex(Ref))
          Other = true;
      });
      if (Other || (frontend::dependsOnThreadIndex(G.Cond) && Edits.empty()))
        return unsupported(U, G.Cond->getBeginLoc(),
                           "a bounds check on something other than the thread's row index");
      llvm::Expected<clang::CharSourceRange> Range = fileRange(U, G.Cond->getSourceRange());
      if (!Range)
        return Range.takeError();
      llvm::Expected<std::string> Text = editedText(U, *Range, Edits);
      if (!Text)
        return Text.takeError();
      Out += (G.Negated ? "!(" : "(") + *Text + ") && ";
    }
    return Out;
  }

  llvm::Error edit(int64_t Block) {
    const clang::Stmt &Whole = outermostLoopStmt(U, For);
    llvm::Expected<clang::CharSourceRange> LoopRange = statementRange(U, Whole);
    if (!LoopRange)
      return LoopRange.takeError();
    llvm::Expected<clang::CharSourceRange> BodyRange = statementRange(U, *For.getBody());
    if (!BodyRange)
      return BodyRange.takeError();
    llvm::Expected<std::string> Init = exprText(U, *Counter.Init);
    llvm::Expected<std::string> Bound = exprText(U, *Counter.Bound);
    if (!Init)
      return Init.takeError();
    if (!Bound)
      return Bound.takeError();
    llvm::Expected<std::vector<Guard>> Guards = hoistOutOfGuards(U, Whole);
    if (!Guards)
      return Guards.takeError();
    std::string Row = I->getName().str() + " - (int)threadIdx.x + kopt_r";
    llvm::Expected<std::string> RowOk = rowGuards(*Guards, Row);
    if (!RowOk)
      return RowOk.takeError();
    std::string T = std::to_string(Columns), B = std::to_string(Block);
    std::string KType = typeText(Counter.Var->getType(), U);
    std::string K = Counter.Var->getName().str();
    std::string Cmp = " " + Counter.Comparison + " (" + *Bound + ")";
    std::vector<TextEdit> Uses;
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    OS << "{ // kopt coalescing-repair: " << Reads.size()
       << " read(s) through shared-memory tiles\n";
    for (size_t N = 0; N < Reads.size(); ++N)
      OS << "__shared__ " << Reads[N].Type << " kopt_rows" << N << "[" << B << "][" << T
         << " + 1];\n";
    OS << "for (" << KType << " kopt_k0 = (" << *Init << "); kopt_k0" << Cmp << "; kopt_k0 += " << T
       << ") {\n__syncthreads();\n"
       << "for (int kopt_e = (int)threadIdx.x; kopt_e < " << B << " * " << T
       << "; kopt_e += (int)blockDim.x) {\n"
       << "const int kopt_r = kopt_e / " << T << ", kopt_c = kopt_e % " << T << ";\n"
       << "const " << KType << " kopt_k = kopt_k0 + kopt_c;\n"
       << "if (" << *RowOk << "kopt_k" << Cmp << ") {\n";
    for (size_t N = 0; N < Reads.size(); ++N) {
      const Staged &S = Reads[N];
      auto Name = [&](const clang::VarDecl *V) -> std::string {
        return V == I ? "(" + Row + ")" : "";
      };
      auto Text = [&](const Linear &L) {
        return toText(L, [&](const clang::VarDecl *V) {
          return V == Counter.Var ? std::string("kopt_k") : Name(V);
        });
      };
      Linear Column = S.Rest + Linear::atom(Counter.Var);
      OS << "kopt_rows" << N << "[kopt_r][kopt_c] = " << S.Param->getName();
      if (S.TwoD)
        OS << "[" << Row << "][" << Text(Column) << "]";
      else
        OS << "[" << Text(S.Stride * Linear::atom(I) + Column) << "]";
      OS << ";\n";
      for (const clang::Expr *At : S.At)
        Uses.push_back({At->getSourceRange(),
                        "kopt_rows" + std::to_string(N) + "[threadIdx.x][" + K + " - kopt_k0]"});
    }
    OS << "}\n}\n__syncthreads();\n";
    std::string AllGuards = conjunction(*Guards);
    if (!AllGuards.empty())
      OS << "if (" << AllGuards << ") {\n";
    llvm::Expected<std::string> Body = editedText(U, *BodyRange, Uses);
    if (!Body)
      return Body.takeError();
    OS << "for (" << (Counter.Declared ? KType + " " : std::string()) << K << " = kopt_k0; " << K
       << Cmp << " && " << K << " < kopt_k0 + " << T << "; ++" << K << ")\n"
       << *Body << "\n";
    if (!AllGuards.empty())
      OS << "}\n";
    OS << "}\n}";
    U.Rewrite.ReplaceText(*LoopRange, Out);
    return llvm::Error::success();
  }

  UnitAST &U;
  const clang::ForStmt &For;
  LoopCounter Counter;
  const clang::VarDecl *I;
  AccessIndexer Indexer;
  bool NoAliasClause;
  std::vector<Staged> Reads;
};

class CoalescingRepair : public Transform {
public:
  llvm::StringRef id() const override { return "coalescing-repair"; }

  std::vector<ParamDecl> params() const override { return {{"block", {32, 64, 128, 256, 512}}}; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fits1DGuarded(Kernel); !F)
      return F.offer();
    bool Strided = false;
    for (const frontend::MemoryAccess &A : Kernel.Features.Accesses)
      Strided |= A.Loop >= 0 && A.Read && A.Pattern == frontend::AccessPattern::Strided;
    if (!Strided)
      return Offer::no("no loop reads memory a row apart between neighbouring threads");
    return Offer::of({{{"block", 128}}, {{"block", 256}}, {{"block", 64}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Block = Params.at("block");
    if (Fit F = fits1DGuarded(In.Kernel); !F)
      return llvm::createStringError(F.whyNot());
    unsigned Line = 0;
    size_t Rows = 0;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      llvm::Expected<std::vector<const clang::Expr *>> Positions = xPositions(AST);
      if (!Positions)
        return Positions.takeError();
      const clang::VarDecl *Position = positionVar(AST, *Positions);
      if (!Position)
        return llvm::createStringError(
            "the thread's index is not one variable set from blockIdx.x * blockDim.x + "
            "threadIdx.x");
      std::string FirstWhy;
      for (const clang::ForStmt *For : outerLoops(AST)) {
        std::optional<LoopCounter> L = loopCounter(*For, AST);
        if (!L)
          continue;
        Planner Plan(AST, *For, *L, Position, *Positions,
                     In.Kernel.Pragma && In.Kernel.Pragma->NoAlias);
        llvm::Error E = Plan.run(Block);
        if (!E) {
          Line = AST.line(For->getBeginLoc());
          Rows = 1;
          return llvm::Error::success();
        }
        std::string Why = llvm::toString(std::move(E));
        if (FirstWhy.empty())
          FirstWhy = Why;
      }
      return llvm::createStringError(FirstWhy.empty() ? "the kernel has no counted loop"
                                                      : FirstWhy);
    });
    if (!Text)
      return Text.takeError();
    (void)Rows;
    frontend::LaunchMapping Launch;
    std::string B = std::to_string(Block);
    Launch.Block[0] = B;
    Launch.Grid[0] = "(grid_x * block_x + " + std::to_string(Block - 1) + ") / " + B;
    return TransformOutput{std::move(*Text), Launch,
                           "the loop at line " + std::to_string(Line) +
                               " reads its rows through shared-memory tiles (block " + B + ")"};
  }

private:
  // The one variable that holds the thread's position plus something the same
  // for all threads (int i = blockIdx.x * blockDim.x + threadIdx.x + 1), where
  // every position of the kernel is that variable's.
  static const clang::VarDecl *positionVar(const UnitAST &U,
                                           llvm::ArrayRef<const clang::Expr *> Sums) {
    std::vector<AccessIndexer::PositionVar> Vars = AccessIndexer(U, Sums).positionVars();
    return Sums.size() == 1 && Vars.size() == 1 ? Vars.front().Var : nullptr;
  }
};
} // namespace

std::unique_ptr<Transform> makeCoalescingRepairTransform() {
  return std::make_unique<CoalescingRepair>();
}

} // namespace kopt::transform
