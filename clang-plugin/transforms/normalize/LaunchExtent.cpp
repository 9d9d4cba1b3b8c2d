// The launch's extent read into the kernel (normalizations, Normalization.h).
// Under the pragma's launch contract gridDim.c is the grid's expression and a
// thread's position c lies below grid.c * block.c; written so, a kernel keeps
// what it computes under the original launch, and its code no longer depends
// on the launch's shape, which every transform that regroups threads changes.
//
// grid-dims-from-launch: CUDA by Example's `offset = x + y * blockDim.x *
// gridDim.x` reads the launch's width from the grid. Each gridDim.c becomes
// the grid's expression, and a blockDim.c multiplied with it the block's size.
// Not in kernels with a loop that steps by gridDim (grid-stride loops, which
// the grid-stride transforms take as they are).
//
// launch-extent-guards: many kernels have no bounds check because their
// program launches exactly the threads there is work for (Kirk and Hwu's
// first products, `c[i] = a[i] + b[i]` on n / 256 blocks). The transforms that
// regroup threads need one: their blocks may cover positions the original grid
// did not. `row < (grid_y) * block_y` holds for every thread of the original
// launch and fails for a variant's extra threads. Only for a position held in
// a local among the declarations that open the body (blockIdx.c * blockDim.c
// + threadIdx.c, also through aliases), only in dimensions that no comparison
// of the kernel bounds yet, and not in kernels with barriers, shared memory or
// warp intrinsics (their threads depend on the block's shape, and none of the
// transforms that need a check takes them).
//
// Both only where the grid's expressions read parameters the kernel never
// changes (they are read where the kernel reads them).
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <llvm/ADT/StringExtras.h>

#include <map>
#include <set>

namespace kopt::transform {

namespace {
// Whether some comparison of the kernel (<, <=, >, >=) reads the thread's
// position in Dim: the kernel bounds it already (`x == 0` picks an edge, and
// bounds nothing).
bool boundsPosition(const clang::Stmt *Body, char Dim) {
  bool Found = false;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *Cmp = llvm::dyn_cast<clang::BinaryOperator>(S);
    Found = Found ||
            (Cmp && Cmp->isRelationalOp() &&
             (readsThreadPosition(Cmp->getLHS(), Dim) || readsThreadPosition(Cmp->getRHS(), Dim)));
  });
  return Found;
}

// Whether the grid's expressions read only what the kernel never changes.
bool gridReadsUnchanged(const UnitAST &U, const std::vector<frontend::ClauseExpr> &Grid,
                        const std::set<const clang::VarDecl *> &Changed) {
  std::set<std::string> Names;
  for (const frontend::ClauseExpr &E : Grid) {
    std::vector<const frontend::ExprNode *> Nodes;
    frontend::collectNames(*E.Root, Nodes);
    for (const frontend::ExprNode *N : Nodes)
      Names.insert(N->Spelling);
  }
  for (const clang::ParmVarDecl *P : U.Kernel.parameters())
    if (Names.count(P->getNameAsString()) && Changed.count(P))
      return false;
  return true;
}

// The factors of a product chain (a * b * c), parentheses and casts looked
// through.
void factorsOf(const clang::Expr *E, std::vector<const clang::Expr *> &Out) {
  const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != clang::BO_Mul) {
    Out.push_back(E);
    return;
  }
  factorsOf(Mul->getLHS(), Out);
  factorsOf(Mul->getRHS(), Out);
}

std::string gridText(const NormalizeOptions &Options, char Dim) {
  size_t D = static_cast<size_t>(Dim - 'x');
  return D < Options.Grid->size() ? "(" + (*Options.Grid)[D].Text + ")" : "1";
}
} // namespace

llvm::Expected<std::string> guardLaunchExtent(UnitAST &U, const NormalizeOptions &Options) {
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(U.Kernel.getBody());
  if (!Options.Block || !Options.Grid || !Body)
    return std::string();
  StmtContents Contents = inspectStmt(*Body);
  if (Contents.Barrier || Contents.Shared || Contents.WarpIntrinsic)
    return std::string();
  std::set<const clang::VarDecl *> Changed = changedVariables(Body);
  if (!gridReadsUnchanged(U, *Options.Grid, Changed))
    return std::string();
  // The position locals among the declarations that open the body, none of
  // which reads memory or has effects (the extra threads of a variant run
  // them unchecked), and the last that declares one.
  std::map<char, const clang::VarDecl *> Position;
  size_t After = 0, Index = 0;
  for (const clang::Stmt *S : Body->body()) {
    ++Index;
    const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(S);
    if (!Decl || !isInertDecl(*S))
      break;
    for (const clang::Decl *D : Decl->decls()) {
      const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
      if (!V || !V->getInit() || Changed.count(V) || !V->getType()->isIntegerType())
        continue;
      std::optional<char> Dim = positionSumDimThroughLocals(*V->getInit(), Changed);
      if (Dim && !Position.count(*Dim)) {
        Position[*Dim] = V;
        After = Index;
      }
    }
  }
  // z, y, x: rows before columns, as kernels write their checks.
  std::vector<std::string> Checks;
  for (auto It = Position.rbegin(); It != Position.rend(); ++It) {
    auto [Dim, V] = *It;
    if (boundsPosition(Body, Dim))
      continue;
    std::string Block = std::to_string((*Options.Block)[static_cast<size_t>(Dim - 'x')]);
    Checks.push_back(V->getNameAsString() + " < " + gridText(Options, Dim) + " * " + Block);
  }
  if (Checks.empty() || After >= Body->size())
    return std::string();
  const clang::Stmt *First = Body->body_begin()[After];
  clang::SourceLocation Begin = First->getBeginLoc(), End = Body->getRBracLoc();
  if (Begin.isMacroID() || End.isMacroID())
    return unsupported(U, Begin, "the statements to check begin or end in a macro");
  U.Rewrite.InsertTextBefore(Begin, "if (" + llvm::join(Checks, " && ") + ") { ");
  U.Rewrite.InsertTextBefore(End, "} ");
  return "checked " + llvm::join(Checks, ", ") + " (the launch's extent)";
}

llvm::Expected<std::string> gridDimsFromLaunch(UnitAST &U, const NormalizeOptions &Options) {
  const clang::Stmt *Body = U.Kernel.getBody();
  if (!Options.Block || !Options.Grid || !Body)
    return std::string();
  std::set<const clang::VarDecl *> Changed = changedVariables(Body);
  if (!gridReadsUnchanged(U, *Options.Grid, Changed))
    return std::string();
  // A loop that steps by gridDim, in its increment or in its body (an
  // assignment to a variable), directly or through a local (`int stride =
  // blockDim.x * gridDim.x;`).
  auto ReadsGrid = [](const clang::Expr *E) {
    return E && frontend::anySubExpr(E, [](const clang::Expr *X) {
             std::optional<frontend::IndexBuiltin> B = frontend::asIndexBuiltin(X);
             return B && B->Var == "gridDim";
           });
  };
  bool GridStride = false;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      GridStride = GridStride || ReadsGrid(For->getInc());
    const auto *Step = llvm::dyn_cast<clang::BinaryOperator>(S);
    if (Step && Step->isAssignmentOp() && namedVariable(Step->getLHS()))
      GridStride = GridStride || ReadsGrid(Step->getRHS());
  });
  if (GridStride)
    return std::string();
  // Each gridDim.c becomes the grid's expression, and each blockDim.c in a
  // product with it the block's size. Done holds where each edit begins (an
  // expression and the implicit nodes around it share that place).
  std::vector<std::pair<clang::SourceRange, std::string>> Edits;
  std::set<unsigned> Done;
  std::set<std::string> Grids, Blocks;
  std::string Why;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *E = llvm::dyn_cast<clang::Expr>(S);
    std::optional<frontend::IndexBuiltin> B = E ? frontend::asIndexBuiltin(E) : std::nullopt;
    if (!B || B->Var != "gridDim" || !Done.insert(E->getBeginLoc().getRawEncoding()).second)
      return;
    if (E->getBeginLoc().isMacroID()) {
      Why = "gridDim comes from a macro";
      return;
    }
    Edits.push_back({E->getSourceRange(), gridText(Options, B->Component)});
    Grids.insert(std::string("gridDim.") + B->Component + " as " + gridText(Options, B->Component));
  });
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(S);
    if (!Mul || Mul->getOpcode() != clang::BO_Mul)
      return;
    std::vector<const clang::Expr *> Factors;
    factorsOf(Mul, Factors);
    for (const clang::Expr *G : Factors) {
      std::optional<frontend::IndexBuiltin> GB = frontend::asIndexBuiltin(G->IgnoreParenImpCasts());
      if (!GB || GB->Var != "gridDim")
        continue;
      for (const clang::Expr *F : Factors) {
        const clang::Expr *Bare = F->IgnoreParenImpCasts();
        std::optional<frontend::IndexBuiltin> FB = frontend::asIndexBuiltin(Bare);
        if (!FB || FB->Var != "blockDim" || FB->Component != GB->Component ||
            !Done.insert(Bare->getBeginLoc().getRawEncoding()).second)
          continue;
        if (Bare->getBeginLoc().isMacroID()) {
          Why = "blockDim comes from a macro";
          continue;
        }
        std::string Size =
            std::to_string((*Options.Block)[static_cast<size_t>(FB->Component - 'x')]);
        Edits.push_back({Bare->getSourceRange(), Size});
        Blocks.insert(std::string("blockDim.") + FB->Component + " as " + Size);
      }
    }
  });
  if (!Why.empty())
    return unsupported(U, Body->getBeginLoc(), Why);
  if (Edits.empty())
    return std::string();
  for (const auto &[Range, Text] : Edits)
    U.Rewrite.ReplaceText(Range, Text);
  std::string Did = "read " + llvm::join(Grids, ", ") + " (the launch's grid)";
  if (!Blocks.empty())
    Did += ", " + llvm::join(Blocks, ", ") + " in its products";
  return Did;
}

} // namespace kopt::transform
