// warp-shuffle-reduce: a block's shared-memory tree reduction
//   for (s = blockDim.x / 2; s > 0; s >>= 1) {
//     if (tid < s) sdata[tid] += sdata[tid + s];
//     __syncthreads();
//   }
// takes log2(blockDim) barriers and shared-memory round trips. Each warp folds
// its 32 elements by __shfl_down_sync instead, lane 0 of each warp leaves the
// warp's value in sdata[warp], and the first warp folds those the same way:
// two barriers, one shared stage. sdata[0] ends with the block's value as
// before; the other elements hold partial values that the original held
// differently, so nothing after the loop may read them (element 0 aside)
// until each thread has written its own element again.
//
// The shuffles need a whole number of full warps: a 1-D block of a power of
// two from 32 to 1024 threads that the tree covers exactly (blockDim.x, or a
// constant start of half the pragma's block). A launch outside that runs the
// original loop, kept in the else branch. Every thread must reach the loop
// (no return before it, no branch or loop around it). Sums reassociate
// (floats move within rounding); max and min, and integer sums, are exact.
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/TreeReduction.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringSet.h>

namespace kopt::transform {

namespace {

bool isBefore(const UnitAST &U, clang::SourceLocation A, clang::SourceLocation B) {
  return U.Ctx.getSourceManager().isBeforeInTranslationUnit(A, B);
}

// Checks what follows the loop: until a statement of its block writes a[tid]
// for every thread, the array is read at element 0 only.
llvm::Error checkReadsAfter(UnitAST &U, const TreeLoop &T, const clang::Stmt *Body,
                            const std::set<const clang::VarDecl *> &Changed) {
  const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(parentOf(T.Loop, U.Ctx));
  clang::SourceLocation Until; // Invalid: the kernel's end.
  const clang::Expr *RewrittenAt = nullptr;
  bool After = false;
  for (const clang::Stmt *S : Block->body()) {
    if (S == T.Loop) {
      After = true;
      continue;
    }
    const auto *Write = llvm::dyn_cast<clang::BinaryOperator>(S);
    if (!After || !Write || Write->getOpcode() != clang::BO_Assign)
      continue;
    const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(Write->getLHS()->IgnoreParens());
    std::optional<frontend::IndexBuiltin> Index =
        Sub ? builtinThroughLocal(Sub->getIdx(), Changed) : std::nullopt;
    if (Sub && namedVariable(Sub->getBase()) == T.Array && Index && Index->Var == "threadIdx" &&
        Index->Component == 'x') {
      Until = S->getEndLoc();
      RewrittenAt = Sub->getBase()->IgnoreParenImpCasts();
      break;
    }
  }
  std::optional<llvm::Error> Refusal;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    if (Refusal || !Ref || Ref->getDecl() != T.Array || Ref == RewrittenAt ||
        !isBefore(U, T.Loop->getEndLoc(), Ref->getLocation()) ||
        (Until.isValid() && isBefore(U, Until, Ref->getLocation())))
      return;
    const auto *Sub =
        llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parentPastParensAndCasts(Ref, U.Ctx));
    std::optional<llvm::APSInt> Index =
        Sub ? Sub->getIdx()->getIntegerConstantExpr(U.Ctx) : std::nullopt;
    if (!Index || *Index != 0)
      Refusal = unsupported(U, Ref->getLocation(),
                            "'" + T.Array->getName() +
                                "' is used after the tree loop other than as element 0");
  });
  return Refusal ? std::move(*Refusal) : llvm::Error::success();
}

// The replacement, put before the loop; the loop stays as the else branch.
std::string warpFold(const UnitAST &U, const TreeLoop &T) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  std::string Ind(SM.getPresumedColumnNumber(SM.getExpansionLoc(T.Loop->getBeginLoc())) - 1, ' ');
  std::string A = T.Array->getName().str();
  clang::QualType Element =
      U.Ctx.getAsArrayType(T.Array->getType())->getElementType().getUnqualifiedType();
  std::string Fits, Warps, HalfWarps;
  if (T.Elements) {
    Fits = "blockDim.x == " + std::to_string(*T.Elements) + "u";
    Warps = std::to_string(*T.Elements / 32) + "u";
    HalfWarps = std::to_string(*T.Elements / 64);
  } else {
    Fits = "blockDim.x >= 32u && (blockDim.x & (blockDim.x - 1u)) == 0u";
    Warps = "(blockDim.x >> 5)";
    HalfWarps = "(int)(blockDim.x >> 6)";
  }
  std::string Shuffle = "__shfl_down_sync(0xffffffffu, kopt_v, kopt_o)";
  std::string Step = T.How.Call.empty() ? "kopt_v += " + Shuffle + ";"
                                        : "kopt_v = " + T.How.Call + "(kopt_v, " + Shuffle + ");";
  auto Line = [&](const std::string &Text) { return Ind + Text + "\n"; };
  return "if (blockDim.y * blockDim.z == 1u && " + Fits +
         ") { // kopt warp-shuffle-reduce: shuffles in each warp, one shared stage across warps\n" +
         Line("  " + typeText(Element, U) + " kopt_v = " + A + "[threadIdx.x];") +
         Line("  for (int kopt_o = 16; kopt_o > 0; kopt_o >>= 1)") + Line("    " + Step) +
         Line("  __syncthreads();") + Line("  if ((threadIdx.x & 31u) == 0u)") +
         Line("    " + A + "[threadIdx.x >> 5] = kopt_v;") + Line("  __syncthreads();") +
         Line("  if (threadIdx.x < 32u) {") + Line("    if (threadIdx.x < " + Warps + ")") +
         Line("      kopt_v = " + A + "[threadIdx.x];") +
         Line("    for (int kopt_o = " + HalfWarps + "; kopt_o > 0; kopt_o >>= 1)") +
         Line("      " + Step) + Line("    if (threadIdx.x == 0u)") +
         Line("      " + A + "[0] = kopt_v;") + Line("  }") + Line("  __syncthreads();") + Ind +
         "} else ";
}

struct Rewritten {
  unsigned Loops = 0;
  std::string First; // "line 12 (sdata, +=)".
};

llvm::Expected<Rewritten> rewrite(UnitAST &U, std::optional<int64_t> BlockX) {
  const clang::Stmt *Body = U.Kernel.getBody();
  std::set<const clang::VarDecl *> Changed = changedVariables(Body);
  std::vector<const clang::ForStmt *> Loops;
  std::vector<const clang::ReturnStmt *> Returns;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      Loops.push_back(For);
    if (const auto *R = llvm::dyn_cast<clang::ReturnStmt>(S))
      Returns.push_back(R);
  });
  Rewritten Done;
  std::optional<llvm::Error> FirstRefusal;
  auto Try = [&](const clang::ForStmt *For) -> llvm::Error {
    llvm::Expected<TreeLoop> T = matchTreeLoop(U, *For, Changed);
    if (!T)
      return T.takeError();
    clang::QualType Element = U.Ctx.getAsArrayType(T->Array->getType())->getElementType();
    bool Shuffles = Element->isRealFloatingType() || Element->isIntegerType();
    if (!Shuffles || U.Ctx.getTypeSize(Element) < 32 || U.Ctx.getTypeSize(Element) > 64)
      return unsupported(U, T->Array->getLocation(),
                         "'" + T->Array->getName() +
                             "' holds a type __shfl_down_sync does not move (it takes 32- and "
                             "64-bit numbers)");
    if (!inBlocksOnly(For, Body, U.Ctx))
      return unsupported(U, For->getBeginLoc(),
                         "the tree loop is inside a branch or loop (every thread must reach it)");
    for (const clang::ReturnStmt *R : Returns)
      if (isBefore(U, R->getBeginLoc(), For->getBeginLoc()))
        return unsupported(U, R->getBeginLoc(),
                           "a return before the tree loop (every thread must reach the shuffles)");
    if (T->Elements && T->Elements != BlockX)
      return unsupported(U, For->getBeginLoc(),
                         "the tree covers " + std::to_string(*T->Elements) +
                             " elements, not the pragma's block of " +
                             (BlockX ? std::to_string(*BlockX) : "unknown size") + " threads");
    if (llvm::Error E = checkReadsAfter(U, *T, Body, Changed))
      return E;
    U.Rewrite.InsertTextBefore(For->getBeginLoc(), warpFold(U, *T));
    if (Done.Loops++ == 0)
      Done.First = "line " + std::to_string(U.line(For->getBeginLoc())) + " (" +
                   T->Array->getName().str() + ", " +
                   (T->How.Call.empty() ? std::string("+") : T->How.Call) + ")";
    return llvm::Error::success();
  };
  for (const clang::ForStmt *For : Loops)
    if (llvm::Error E = Try(For)) {
      if (FirstRefusal)
        llvm::consumeError(std::move(E));
      else
        FirstRefusal = std::move(E);
    }
  if (Done.Loops == 0) {
    if (FirstRefusal)
      return std::move(*FirstRefusal);
    return unsupported(U, U.Kernel.getLocation(), "the kernel has no loop");
  }
  if (FirstRefusal)
    llvm::consumeError(std::move(*FirstRefusal));
  return Done;
}

class WarpShuffleReduce : public Transform {
public:
  llvm::StringRef id() const override { return "warp-shuffle-reduce"; }

  // Sums in another order; max and min are exact.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    const frontend::KernelFeatures &F = Kernel.Features;
    if (std::none_of(F.Loops.begin(), F.Loops.end(), frontend::halvesItsVariable))
      return Offer::no("the kernel has no loop that halves its variable (s >>= 1, s /= 2)");
    if (F.SharedVariables.empty() || F.Barriers.empty())
      return Offer::no("the kernel has no shared-memory tree (shared memory and __syncthreads)");
    std::optional<std::array<int64_t, 3>> Block = pragmaBlockDims(Kernel);
    if (!Block)
      return Offer::no("the pragma's launch does not give the block size");
    if ((*Block)[1] != 1 || (*Block)[2] != 1)
      return Offer::no("the block is not 1-D");
    int64_t X = (*Block)[0];
    if (X < 32 || X > 1024 || (X & (X - 1)) != 0)
      return Offer::no("the block of " + std::to_string(X) +
                       " threads is not a power of two from 32 to 1024");
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    std::optional<int64_t> BlockX;
    if (std::optional<std::array<int64_t, 3>> Dims = pragmaBlockDims(In.Kernel))
      BlockX = (*Dims)[0];
    llvm::Expected<RewrittenWith<Rewritten>> Made =
        rewriteUnitWith<Rewritten>(In, [&](UnitAST &U) { return rewrite(U, BlockX); });
    if (!Made)
      return Made.takeError();
    const Rewritten &R = Made->Found;
    std::string What = R.Loops == 1
                           ? "the tree loop at " + R.First
                           : std::to_string(R.Loops) + " tree loops (the first at " + R.First + ")";
    return TransformOutput{std::move(Made->UnitText), std::nullopt,
                           What + " folded by warp shuffles and one shared stage"};
  }
};

} // namespace

std::unique_ptr<Transform> makeWarpShuffleReduceTransform() {
  return std::make_unique<WarpShuffleReduce>();
}

} // namespace kopt::transform
