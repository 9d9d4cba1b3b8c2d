// tree-atomics (a normalization, Normalization.h): a kernel that sums its
// threads' values through a block tree and then adds the block's total to
// global memory with one atomic
//   sdata[tid] = v;
//   __syncthreads();
//   for (s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) ...; __syncthreads(); }
//   if (tid == 0) atomicAdd(total, sdata[0]);
// computes what `atomicAdd(total, v)` in every thread computes: the same sum
// in another order (max and min, and integer sums, exactly). Written so, the
// kernel has no shared memory and no barrier left, and its threads are
// independent: the cooperative transforms (inner-loop-parallel, ...) can then
// give each thread a group of lanes, and lane 0 of a group adds its value.
// An n-body or nearest-neighbour kernel over a few thousand points, which
// fills a fraction of the GPU, is the case this is for.
//
// Taken only where the tree, the store before it and the atomic after it are
// the whole use of the array, every barrier of the kernel is the tree's, the
// atomic's address is the same for every thread (parameters and constants)
// and its value is sdata[0] or a widening conversion of it, and nothing after
// the tree reads memory (its barriers ordered the block's stores before it).
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TreeReduction.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <vector>

namespace kopt::transform {

namespace {

bool isCallTo(const clang::Stmt *S, llvm::StringRef Name) {
  const auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(S);
  const clang::FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == Name;
}

// The atomic that combines values the way the tree folds them.
llvm::StringRef atomicFor(const TreeFold &How) {
  if (How.Call.empty())
    return "atomicAdd";
  if (llvm::StringRef(How.Call).contains("max"))
    return "atomicMax";
  return "atomicMin";
}

// A conversion that keeps every value of its operand: to a floating type no
// narrower, or an integer type no narrower.
bool widens(const clang::CastExpr &Cast, const clang::ASTContext &Ctx) {
  if (Cast.getCastKind() == clang::CK_NoOp || Cast.getCastKind() == clang::CK_LValueToRValue)
    return true;
  clang::QualType From = Cast.getSubExpr()->getType(), To = Cast.getType();
  bool Floats = From->isRealFloatingType() && To->isRealFloatingType();
  bool Integers = From->isIntegerType() && To->isIntegerType();
  return (Floats || Integers) && Ctx.getTypeSize(To) >= Ctx.getTypeSize(From);
}

// Whether E is A[0] under widening conversions and parentheses only.
bool isElementZero(const clang::Expr *E, const clang::VarDecl *A, const clang::ASTContext &Ctx) {
  for (;;) {
    if (const auto *Paren = llvm::dyn_cast<clang::ParenExpr>(E)) {
      E = Paren->getSubExpr();
      continue;
    }
    if (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(E)) {
      if (!widens(*Cast, Ctx))
        return false;
      E = Cast->getSubExpr();
      continue;
    }
    break;
  }
  const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E);
  std::optional<llvm::APSInt> Index =
      Sub ? Sub->getIdx()->getIntegerConstantExpr(Ctx) : std::nullopt;
  return Sub && namedVariable(Sub->getBase()) == A && Index && *Index == 0;
}

// Whether an atomic's address is the same for every thread: it names
// parameters the kernel never changes, enumerators and literals, and reads
// no memory (a subscript only under &).
bool sameForEveryThread(const clang::Expr *E, const std::set<const clang::VarDecl *> &Changed,
                        const clang::ASTContext &Ctx) {
  bool Same = true;
  forEachStmt(E, [&](const clang::Stmt *S) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S)) {
      const clang::ValueDecl *D = Ref->getDecl();
      const auto *Param = llvm::dyn_cast<clang::ParmVarDecl>(D);
      Same &= llvm::isa<clang::EnumConstantDecl>(D) || (Param && !Changed.count(Param));
    } else if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(S)) {
      const auto *Up = llvm::dyn_cast_or_null<clang::UnaryOperator>(
          parentPastParensAndCasts(Sub, const_cast<clang::ASTContext &>(Ctx)));
      Same &= Up && Up->getOpcode() == clang::UO_AddrOf;
    } else {
      Same &= llvm::isa<clang::IntegerLiteral, clang::ImplicitCastExpr, clang::ParenExpr,
                        clang::UnaryOperator, clang::BinaryOperator, clang::CStyleCastExpr>(S) &&
              !(llvm::isa<clang::BinaryOperator>(S) &&
                llvm::cast<clang::BinaryOperator>(S)->isAssignmentOp()) &&
              !(llvm::isa<clang::UnaryOperator>(S) &&
                (llvm::cast<clang::UnaryOperator>(S)->isIncrementDecrementOp() ||
                 llvm::cast<clang::UnaryOperator>(S)->getOpcode() == clang::UO_Deref));
    }
  });
  return Same;
}

// `if (tid == 0) CALL;` (or `!tid`, `0 == tid`, braces around CALL): CALL.
const clang::CallExpr *threadZeroCall(const clang::Stmt *S,
                                      const std::set<const clang::VarDecl *> &Changed,
                                      const clang::ASTContext &Ctx) {
  const auto *If = llvm::dyn_cast_or_null<clang::IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  auto IsTid = [&](const clang::Expr *E) {
    std::optional<frontend::IndexBuiltin> B = builtinThroughLocal(E, Changed);
    return B && B->Var == "threadIdx" && B->Component == 'x';
  };
  auto IsZero = [&](const clang::Expr *E) {
    std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
    return V && *V == 0;
  };
  const clang::Expr *Cond = If->getCond()->IgnoreParenImpCasts();
  bool Zero = false;
  if (const auto *Not = llvm::dyn_cast<clang::UnaryOperator>(Cond))
    Zero = Not->getOpcode() == clang::UO_LNot && IsTid(Not->getSubExpr());
  else if (const auto *Eq = llvm::dyn_cast<clang::BinaryOperator>(Cond))
    Zero = Eq->getOpcode() == clang::BO_EQ && ((IsTid(Eq->getLHS()) && IsZero(Eq->getRHS())) ||
                                               (IsZero(Eq->getLHS()) && IsTid(Eq->getRHS())));
  if (!Zero)
    return nullptr;
  const clang::Stmt *Then = If->getThen();
  if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Then))
    Then = Block->size() == 1 ? Block->body_front() : nullptr;
  return llvm::dyn_cast_or_null<clang::CallExpr>(Then);
}

// Replaces S's text by its line breaks alone, so that later lines keep their
// numbers.
llvm::Error blankOut(UnitAST &U, const clang::Stmt &S) {
  llvm::Expected<clang::CharSourceRange> Range = statementRange(U, S);
  if (!Range)
    return Range.takeError();
  std::string Text = U.Rewrite.getRewrittenText(*Range);
  U.Rewrite.ReplaceText(*Range, std::string(std::count(Text.begin(), Text.end(), '\n'), '\n'));
  return llvm::Error::success();
}

// One tree taken apart: the statements it is made of.
struct AtomicTree {
  TreeLoop Tree;
  const clang::BinaryOperator *Store = nullptr; // sdata[tid] = v;
  const clang::Stmt *Barrier = nullptr;         // The __syncthreads() before the loop.
  const clang::IfStmt *Consumer = nullptr;      // if (tid == 0) atomicAdd(p, sdata[0]);
  const clang::CallExpr *Atomic = nullptr;
};

class TreeAtomics {
public:
  TreeAtomics(UnitAST &Unit, const NormalizeOptions &Options)
      : U(Unit), Body(U.Kernel.getBody()), Changed(changedVariables(Body)),
        PragmaBlock(Options.Block) {}

  llvm::Expected<std::string> run() {
    std::vector<const clang::VarDecl *> Shared;
    std::vector<const clang::ForStmt *> Loops;
    std::vector<const clang::CallExpr *> Barriers;
    forEachStmt(Body, [&](const clang::Stmt *S) {
      if (const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(S))
        for (const clang::Decl *D : Decl->decls())
          if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
              V && V->hasAttr<clang::CUDASharedAttr>())
            Shared.push_back(V);
      if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
        Loops.push_back(For);
      if (isCallTo(S, "__syncthreads"))
        Barriers.push_back(llvm::cast<clang::CallExpr>(S));
    });
    if (Shared.empty())
      return std::string();
    std::vector<AtomicTree> Trees;
    for (const clang::ForStmt *For : Loops) {
      llvm::Expected<TreeLoop> T = matchTreeLoop(U, *For, Changed);
      if (!T) { // Not a tree: whatever uses shared memory there is refused below.
        llvm::consumeError(T.takeError());
        continue;
      }
      llvm::Expected<AtomicTree> A = takeApart(*T);
      if (!A)
        return A.takeError();
      Trees.push_back(*A);
    }
    if (Trees.empty())
      return std::string();
    for (const clang::VarDecl *V : Shared)
      if (std::none_of(Trees.begin(), Trees.end(),
                       [&](const AtomicTree &A) { return A.Tree.Array == V; }))
        return unsupported(U, V->getLocation(),
                           "'" + V->getName() + "' is shared memory outside a tree reduction");
    for (const clang::CallExpr *B : Barriers)
      if (std::none_of(Trees.begin(), Trees.end(), [&](const AtomicTree &A) {
            return A.Barrier == B ||
                   rangeInside(U.Ctx.getSourceManager(), A.Tree.Loop->getSourceRange(),
                               B->getSourceRange());
          }))
        return unsupported(U, B->getBeginLoc(), "a barrier outside the tree reductions");
    std::vector<std::string> Done;
    for (size_t I = 0; I < Trees.size(); ++I) {
      if (llvm::Error E = rewrite(Trees[I], I))
        return E;
      Done.push_back(Trees[I].Tree.Array->getName().str());
    }
    return "the block tree" + std::string(Done.size() > 1 ? "s" : "") + " of " +
           llvm::join(Done, ", ") + " as an atomic a thread";
  }

private:
  UnitAST &U;
  const clang::Stmt *Body;
  std::set<const clang::VarDecl *> Changed;
  std::optional<std::array<int64_t, 3>> PragmaBlock;

  // A tree sums every thread of the block only where the block is 1-D and a
  // power of two that the tree starts at half of.
  llvm::Error checkCovers(const TreeLoop &T) {
    if (!PragmaBlock)
      return unsupported(U, T.Loop->getBeginLoc(),
                         "the pragma's launch does not give the block size");
    int64_t X = (*PragmaBlock)[0];
    if ((*PragmaBlock)[1] != 1 || (*PragmaBlock)[2] != 1 || X < 2 || (X & (X - 1)) != 0)
      return unsupported(U, T.Loop->getBeginLoc(),
                         "the tree covers every thread only for a 1-D block of a power of two");
    if (T.Elements && *T.Elements != X)
      return unsupported(U, T.Loop->getBeginLoc(),
                         "the tree covers " + std::to_string(*T.Elements) +
                             " elements, not the pragma's block of " + std::to_string(X) +
                             " threads");
    return llvm::Error::success();
  }

  // The store, barrier and atomic around the tree loop, or why the tree
  // cannot become atomics.
  llvm::Expected<AtomicTree> takeApart(const TreeLoop &T) {
    AtomicTree A;
    A.Tree = T;
    if (llvm::Error E = checkCovers(T))
      return E;
    const clang::ForStmt *Loop = T.Loop;
    const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(parentOf(Loop, U.Ctx));
    if (!Block || !inBlocksOnly(Loop, Body, U.Ctx))
      return unsupported(U, Loop->getBeginLoc(),
                         "the tree loop is inside a branch or loop (every thread must reach it)");
    std::vector<const clang::Stmt *> Stmts(Block->body_begin(), Block->body_end());
    size_t At = std::find(Stmts.begin(), Stmts.end(), Loop) - Stmts.begin();
    const auto *Store = At >= 2 ? llvm::dyn_cast<clang::BinaryOperator>(Stmts[At - 2]) : nullptr;
    if (!Store || Store->getOpcode() != clang::BO_Assign ||
        ownSharedElement(Store->getLHS(), Changed) != T.Array ||
        !isCallTo(Stmts[At - 1], "__syncthreads"))
      return unsupported(U, Loop->getBeginLoc(),
                         "the tree loop does not follow `" + T.Array->getName() +
                             "[tid] = v; __syncthreads();`");
    A.Store = Store;
    A.Barrier = Stmts[At - 1];
    A.Consumer = At + 1 < Stmts.size() ? llvm::dyn_cast<clang::IfStmt>(Stmts[At + 1]) : nullptr;
    A.Atomic = threadZeroCall(A.Consumer, Changed, U.Ctx);
    llvm::StringRef Wanted = atomicFor(T.How);
    if (!A.Atomic || !isCallTo(A.Atomic, Wanted) || A.Atomic->getNumArgs() != 2)
      return unsupported(U, Loop->getEndLoc(),
                         "the block's value does not go to global memory by `if (tid == 0) " +
                             Wanted + "(p, " + T.Array->getName() + "[0]);`");
    if (!isElementZero(A.Atomic->getArg(1), T.Array, U.Ctx))
      return unsupported(U, A.Atomic->getArg(1)->getBeginLoc(),
                         "the atomic adds more than " + T.Array->getName() +
                             "[0] (or a widening conversion of it)");
    if (!sameForEveryThread(A.Atomic->getArg(0), Changed, U.Ctx))
      return unsupported(U, A.Atomic->getArg(0)->getBeginLoc(),
                         "the atomic's address is not the same for every thread (parameters and "
                         "constants)");
    // The array is the store's, the tree's and the atomic's alone.
    std::optional<llvm::Error> Refusal;
    const clang::SourceManager &SM = U.Ctx.getSourceManager();
    forEachStmt(Body, [&](const clang::Stmt *S) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
      if (Refusal || !Ref || Ref->getDecl() != T.Array)
        return;
      bool Own = rangeInside(SM, Store->getLHS()->getSourceRange(), Ref->getSourceRange()) ||
                 rangeInside(SM, Loop->getSourceRange(), Ref->getSourceRange()) ||
                 rangeInside(SM, A.Atomic->getArg(1)->getSourceRange(), Ref->getSourceRange());
      if (!Own)
        Refusal = unsupported(U, Ref->getLocation(),
                              "'" + T.Array->getName() + "' is used outside its tree reduction");
    });
    if (Refusal)
      return std::move(*Refusal);
    // The tree's barriers also ordered every thread's earlier stores before
    // what the block reads after it; without them nothing may read memory.
    if (const clang::Stmt *Read = readAfter(*A.Consumer))
      return unsupported(U, Read->getBeginLoc(),
                         "the kernel reads memory after the tree (its barriers ordered the "
                         "block's stores before the read)");
    return A;
  }

  // The first memory read (a subscript, a dereference, an arrow, or a call
  // handed a pointer) after End in the kernel's body; null for none.
  const clang::Stmt *readAfter(const clang::Stmt &End) {
    const clang::SourceManager &SM = U.Ctx.getSourceManager();
    const clang::Stmt *First = nullptr;
    forEachStmt(Body, [&](const clang::Stmt *X) {
      if (First || !SM.isBeforeInTranslationUnit(End.getEndLoc(), X->getBeginLoc()))
        return;
      bool Reads = llvm::isa<clang::ArraySubscriptExpr>(X);
      if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X))
        Reads = Un->getOpcode() == clang::UO_Deref;
      else if (const auto *Member = llvm::dyn_cast<clang::MemberExpr>(X))
        Reads = Member->isArrow();
      else if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(X))
        Reads = std::any_of(Call->arg_begin(), Call->arg_end(),
                            [](const clang::Expr *Arg) { return Arg->getType()->isPointerType(); });
      if (Reads)
        First = X;
    });
    return First;
  }

  // The store becomes `T kopt_treeN = v; atomic(p, kopt_treeN);`; the
  // barrier, the loop, the atomic's branch and the array's declaration go.
  llvm::Error rewrite(const AtomicTree &A, size_t Index) {
    clang::QualType Type =
        U.Ctx.getAsArrayType(A.Tree.Array->getType())->getElementType().getUnqualifiedType();
    std::string Value = "kopt_tree" + std::to_string(Index);
    llvm::Expected<std::string> V = exprText(U, *A.Store->getRHS());
    if (!V)
      return V.takeError();
    llvm::Expected<clang::CharSourceRange> Call = fileRange(U, A.Atomic->getSourceRange());
    if (!Call)
      return Call.takeError();
    // sdata[0] gives way to the thread's value; the conversions around it stay.
    const clang::Expr *Element = nullptr;
    forEachStmt(A.Atomic->getArg(1), [&](const clang::Stmt *S) {
      if (!Element && llvm::isa<clang::ArraySubscriptExpr>(S))
        Element = llvm::cast<clang::Expr>(S);
    });
    llvm::Expected<std::string> Atomic = editedText(U, *Call, {{Element->getSourceRange(), Value}});
    if (!Atomic)
      return Atomic.takeError();
    llvm::Expected<clang::CharSourceRange> Store = statementRange(U, *A.Store);
    if (!Store)
      return Store.takeError();
    U.Rewrite.ReplaceText(*Store,
                          typeText(Type, U) + " " + Value + " = " + *V + "; " + *Atomic + ";");
    for (const clang::Stmt *S : {A.Barrier, static_cast<const clang::Stmt *>(A.Tree.Loop),
                                 static_cast<const clang::Stmt *>(A.Consumer)})
      if (llvm::Error E = blankOut(U, *S))
        return E;
    return removeDeclaration(*A.Tree.Array);
  }

  llvm::Error removeDeclaration(const clang::VarDecl &Array) {
    const clang::DeclStmt *Found = nullptr;
    forEachStmt(Body, [&](const clang::Stmt *S) {
      if (const auto *D = llvm::dyn_cast<clang::DeclStmt>(S);
          D && D->isSingleDecl() && D->getSingleDecl() == &Array)
        Found = D;
    });
    if (!Found)
      return unsupported(U, Array.getLocation(),
                         "'" + Array.getName() + "' is declared with other variables");
    return blankOut(U, *Found);
  }
};

} // namespace

llvm::Expected<std::string> treeReductionsToAtomics(UnitAST &U, const NormalizeOptions &Options) {
  return TreeAtomics(U, Options).run();
}

} // namespace kopt::transform
