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

// How sdata[tid] takes in sdata[tid + s]: `+=` (or a = a + b) or a call
// (max, fminf, ...) with both as its arguments.
struct Fold {
  std::string Call; // Empty for a sum.
};

bool isFoldCall(llvm::StringRef Name) {
  static const llvm::StringSet<> Calls = {"max", "min", "fmaxf", "fminf", "fmax", "fmin"};
  return Calls.contains(Name);
}

// A loop the rewrite takes, with what the replacement needs.
struct TreeLoop {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Array = nullptr; // The __shared__ array.
  Fold How;
  std::optional<int64_t> Elements; // A constant start's 2 * s; empty for blockDim.x.
};

class TreeMatcher {
public:
  TreeMatcher(UnitAST &Unit, const std::set<const clang::VarDecl *> &ChangedVars)
      : U(Unit), Changed(ChangedVars) {}

  // The loop as a tree reduction, or why not.
  llvm::Expected<TreeLoop> match(const clang::ForStmt &For) const {
    TreeLoop T;
    T.Loop = &For;
    const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(For.getInit());
    const clang::VarDecl *S = Init && Init->isSingleDecl()
                                  ? llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl())
                                  : nullptr;
    if (!S || !S->getInit() || !S->getType()->isIntegerType())
      return refuse(For, "the loop does not declare its integer variable");
    if (llvm::Error E = matchStart(*S->getInit(), T))
      return E;
    if (!isPositiveTest(For.getCond(), S))
      return refuse(For, "the loop's condition is not s > 0 (or s >= 1, s != 0)");
    if (!isHalving(For.getInc(), S))
      return refuse(For, "the loop does not halve its variable (s >>= 1, s /= 2)");
    const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(For.getBody());
    if (!Body || Body->size() != 2)
      return refuse(For, "the loop's body is not `if (tid < s) ...; __syncthreads();`");
    const auto *If = llvm::dyn_cast<clang::IfStmt>(Body->body_front());
    if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
        !isBarrier(Body->body_back()))
      return refuse(For, "the loop's body is not `if (tid < s) ...; __syncthreads();`");
    if (!isTidBelow(If->getCond(), S))
      return refuse(*If, "the condition is not tid < s (tid being threadIdx.x)");
    const clang::Stmt *Update = If->getThen();
    if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Update))
      Update = Block->size() == 1 ? Block->body_front() : nullptr;
    if (!Update || !matchUpdate(*Update, S, T))
      return refuse(*If, "the update is not a[tid] += a[tid + s] or a[tid] = f(a[tid], a[tid + s]) "
                         "with f max, min, fmaxf, fminf, fmax or fmin, a a __shared__ array");
    return T;
  }

private:
  UnitAST &U;
  const std::set<const clang::VarDecl *> &Changed;

  llvm::Error refuse(const clang::Stmt &At, const llvm::Twine &Why) const {
    return unsupported(U, At.getBeginLoc(), Why);
  }

  bool isBuiltin(const clang::Expr *E, llvm::StringRef Var) const {
    std::optional<frontend::IndexBuiltin> B = builtinThroughLocal(E, Changed);
    return B && B->Var == Var && B->Component == 'x';
  }

  static bool isVar(const clang::Expr *E, const clang::VarDecl *V) { return namedVariable(E) == V; }

  std::optional<int64_t> constant(const clang::Expr *E) const {
    std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(U.Ctx);
    return V ? std::optional<int64_t>(V->getExtValue()) : std::nullopt;
  }

  // blockDim.x / 2, blockDim.x >> 1, or a constant.
  llvm::Error matchStart(const clang::Expr &Start, TreeLoop &T) const {
    const clang::Expr *E = Start.IgnoreParenImpCasts();
    if (std::optional<int64_t> C = constant(E)) {
      T.Elements = 2 * *C;
      return llvm::Error::success();
    }
    const auto *Half = llvm::dyn_cast<clang::BinaryOperator>(E);
    if (Half && isBuiltin(Half->getLHS(), "blockDim")) {
      std::optional<int64_t> By = constant(Half->getRHS());
      if ((Half->getOpcode() == clang::BO_Div && By == 2) ||
          (Half->getOpcode() == clang::BO_Shr && By == 1))
        return llvm::Error::success();
    }
    return unsupported(U, Start.getBeginLoc(),
                       "the loop does not start at blockDim.x / 2 or a constant");
  }

  bool isPositiveTest(const clang::Expr *Cond, const clang::VarDecl *S) const {
    const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(Cond->IgnoreParenImpCasts());
    if (!B)
      return false;
    std::optional<int64_t> R = constant(B->getRHS()), L = constant(B->getLHS());
    if (isVar(B->getLHS(), S))
      return ((B->getOpcode() == clang::BO_GT || B->getOpcode() == clang::BO_NE) && R == 0) ||
             (B->getOpcode() == clang::BO_GE && R == 1);
    return isVar(B->getRHS(), S) && B->getOpcode() == clang::BO_LT && L == 0;
  }

  bool isHalving(const clang::Expr *Inc, const clang::VarDecl *S) const {
    const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(Inc);
    if (!B || !isVar(B->getLHS(), S))
      return false;
    std::optional<int64_t> By = constant(B->getRHS());
    if (B->getOpcode() == clang::BO_ShrAssign)
      return By == 1;
    if (B->getOpcode() == clang::BO_DivAssign)
      return By == 2;
    if (B->getOpcode() != clang::BO_Assign)
      return false;
    const auto *R = llvm::dyn_cast<clang::BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (!R || !isVar(R->getLHS(), S))
      return false;
    By = constant(R->getRHS());
    return (R->getOpcode() == clang::BO_Shr && By == 1) ||
           (R->getOpcode() == clang::BO_Div && By == 2);
  }

  static bool isBarrier(const clang::Stmt *S) {
    const auto *Call = llvm::dyn_cast<clang::CallExpr>(S);
    const clang::FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    return F && F->getIdentifier() && F->getName() == "__syncthreads";
  }

  bool isTidBelow(const clang::Expr *Cond, const clang::VarDecl *S) const {
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond->IgnoreParenImpCasts());
    if (!B)
      return false;
    if (B->getOpcode() == clang::BO_LT)
      return isBuiltin(B->getLHS(), "threadIdx") && isVar(B->getRHS(), S);
    return B->getOpcode() == clang::BO_GT && isVar(B->getLHS(), S) &&
           isBuiltin(B->getRHS(), "threadIdx");
  }

  // a[tid] (Plus false) or a[tid + s] (Plus true) with a a __shared__ array:
  // the array, or null.
  const clang::VarDecl *element(const clang::Expr *E, const clang::VarDecl *S, bool Plus) const {
    const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E->IgnoreParenImpCasts());
    if (!Sub)
      return nullptr;
    const clang::VarDecl *A = namedVariable(Sub->getBase());
    if (!A || !A->hasAttr<clang::CUDASharedAttr>() || !A->getType()->isArrayType())
      return nullptr;
    const clang::Expr *I = Sub->getIdx()->IgnoreParenImpCasts();
    if (!Plus)
      return isBuiltin(I, "threadIdx") ? A : nullptr;
    const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(I);
    if (!Add || Add->getOpcode() != clang::BO_Add)
      return nullptr;
    bool Fits = (isBuiltin(Add->getLHS(), "threadIdx") && isVar(Add->getRHS(), S)) ||
                (isVar(Add->getLHS(), S) && isBuiltin(Add->getRHS(), "threadIdx"));
    return Fits ? A : nullptr;
  }

  bool matchUpdate(const clang::Stmt &Update, const clang::VarDecl *S, TreeLoop &T) const {
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(&Update);
    if (!B)
      return false;
    const clang::VarDecl *A = element(B->getLHS(), S, false);
    if (!A)
      return false;
    T.Array = A;
    if (B->getOpcode() == clang::BO_AddAssign)
      return element(B->getRHS(), S, true) == A;
    if (B->getOpcode() != clang::BO_Assign)
      return false;
    const clang::Expr *R = B->getRHS()->IgnoreParenImpCasts();
    // Both operands, own element first or second.
    auto Pair = [&](const clang::Expr *X, const clang::Expr *Y) {
      return (element(X, S, false) == A && element(Y, S, true) == A) ||
             (element(X, S, true) == A && element(Y, S, false) == A);
    };
    if (const auto *Sum = llvm::dyn_cast<clang::BinaryOperator>(R))
      return Sum->getOpcode() == clang::BO_Add && Pair(Sum->getLHS(), Sum->getRHS());
    const auto *Call = llvm::dyn_cast<clang::CallExpr>(R);
    const clang::FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    if (!F || !F->getIdentifier() || !isFoldCall(F->getName()) || Call->getNumArgs() != 2)
      return false;
    T.How.Call = F->getName().str();
    return Pair(Call->getArg(0), Call->getArg(1));
  }
};

// Whether S sits in the kernel's body through blocks only (every thread that
// reaches the body's statement reaches S).
bool inBlocksOnly(const clang::Stmt *S, const clang::Stmt *Body, clang::ASTContext &Ctx) {
  for (const clang::Stmt *P = parentOf(S, Ctx); P; P = parentOf(P, Ctx)) {
    if (P == Body)
      return true;
    if (!llvm::isa<clang::CompoundStmt>(P))
      return false;
  }
  return false;
}

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
  TreeMatcher Matcher(U, Changed);
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
    llvm::Expected<TreeLoop> T = Matcher.match(*For);
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

bool halves(const frontend::LoopFeature &L) {
  llvm::StringRef Inc = L.Increment;
  return Inc.contains(">>= 1") || Inc.contains("/= 2") || Inc.ends_with(">> 1") ||
         Inc.ends_with("/ 2");
}

class WarpShuffleReduce : public Transform {
public:
  llvm::StringRef id() const override { return "warp-shuffle-reduce"; }

  // Sums in another order; max and min are exact.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    const frontend::KernelFeatures &F = Kernel.Features;
    if (std::none_of(F.Loops.begin(), F.Loops.end(), halves))
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
