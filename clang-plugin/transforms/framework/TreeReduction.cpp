#include "clang-plugin/transforms/framework/TreeReduction.h"

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/StringSet.h>

namespace kopt::transform {

namespace {

// The __shared__ array E subscripts (a[i]), or null.
const clang::VarDecl *sharedArrayOf(const clang::Expr *E) {
  const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  const clang::VarDecl *A = Sub ? namedVariable(Sub->getBase()) : nullptr;
  if (!A || !A->hasAttr<clang::CUDASharedAttr>() || !A->getType()->isArrayType())
    return nullptr;
  return A;
}

bool isFoldCall(llvm::StringRef Name) {
  static const llvm::StringSet<> Calls = {"max", "min", "fmaxf", "fminf", "fmax", "fmin"};
  return Calls.contains(Name);
}

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
    if (!Plus)
      return ownSharedElement(E, Changed);
    const clang::VarDecl *A = sharedArrayOf(E);
    if (!A)
      return nullptr;
    const clang::Expr *I = llvm::cast<clang::ArraySubscriptExpr>(E->IgnoreParenImpCasts())
                               ->getIdx()
                               ->IgnoreParenImpCasts();
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

} // namespace

bool inBlocksOnly(const clang::Stmt *S, const clang::Stmt *Body, clang::ASTContext &Ctx) {
  for (const clang::Stmt *P = parentOf(S, Ctx); P; P = parentOf(P, Ctx)) {
    if (P == Body)
      return true;
    if (!llvm::isa<clang::CompoundStmt>(P))
      return false;
  }
  return false;
}

llvm::Expected<TreeLoop> matchTreeLoop(UnitAST &U, const clang::ForStmt &For,
                                       const std::set<const clang::VarDecl *> &Changed) {
  return TreeMatcher(U, Changed).match(For);
}

const clang::VarDecl *ownSharedElement(const clang::Expr *E,
                                       const std::set<const clang::VarDecl *> &Changed) {
  const clang::VarDecl *A = sharedArrayOf(E);
  if (!A)
    return nullptr;
  const auto *Sub = llvm::cast<clang::ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  std::optional<frontend::IndexBuiltin> B = builtinThroughLocal(Sub->getIdx(), Changed);
  return B && B->Var == "threadIdx" && B->Component == 'x' ? A : nullptr;
}

} // namespace kopt::transform
