// row-cooperative: a kernel written one thread per row becomes one block per
// row. The global index r = blockIdx.x * blockDim.x + threadIdx.x becomes
// blockIdx.x, the launch gives grid_x * block_x blocks of B threads, and each
// counted loop over the row strides by blockDim.x from threadIdx.x. A loop that
// folds the row into variables (s += e, s = s + e, s = fmaxf(s, e), ...) is
// followed by a block-wide reduction of each that leaves the total in every
// thread; a loop that writes only p[j] or p[E + j] needs none. A global
// accumulator (y[i] += ...) is first kept in a register (Normalization.h).
// Outside the loops every thread holds
// the same values (nothing but the loops reads threadIdx), so branches there
// are block-uniform and barriers are safe; stores outside the loops run in
// thread 0 only. Anything else (scans, loops carrying other state, while
// loops) is refused: a wrong rewrite is worse than none.
#include "clang-plugin/pragma/ClauseParser.h"
#include "clang-plugin/pragma/PragmaClauses.h"
#include "clang-plugin/transforms/AstEdit.h"
#include "clang-plugin/transforms/AstWalk.h"
#include "clang-plugin/transforms/GlobalIndex.h"
#include "clang-plugin/transforms/Normalization.h"
#include "clang-plugin/transforms/TransformFactories.h"
#include "clang-plugin/transforms/TransformSupport.h"
#include "clang-plugin/transforms/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <set>

namespace kopt::transform {

namespace {
// Most promising first: on an H100, 256 and 512 were within 10% of each
// other on softmax, layer norm and matvec rows; 32 was slowest.
constexpr int64_t Blocks[] = {256, 512, 128, 32};

// What an assignment, increment or atomic changes: a variable of the thread
// (Memory false), or memory (Var and Subscript set for p[i] with p a pointer
// variable; Subscript null where the target is not of that form).
struct Write {
  bool Memory = false;
  const clang::VarDecl *Var = nullptr;
  const clang::ArraySubscriptExpr *Subscript = nullptr;
  const clang::Expr *At = nullptr;
};

const clang::VarDecl *varOf(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
}

Write targetOf(const clang::Expr *Lhs) {
  Write W;
  W.At = Lhs;
  const clang::Expr *E = Lhs->IgnoreParenImpCasts();
  if (const clang::VarDecl *V = varOf(E)) {
    W.Var = V;
    // A __device__ or static variable is memory all threads share.
    W.Memory = V->getType()->isReferenceType() || V->hasGlobalStorage();
    return W;
  }
  if (const auto *Member = llvm::dyn_cast<clang::MemberExpr>(E); Member && !Member->isArrow())
    return targetOf(Member->getBase());
  if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
    const clang::VarDecl *V = varOf(Sub->getBase());
    if (V && V->getType()->isArrayType()) { // A local array: a variable.
      W.Var = V;
      return W;
    }
    W.Memory = true;
    if (V && V->getType()->isPointerType()) {
      W.Var = V;
      W.Subscript = Sub;
    }
    return W;
  }
  W.Memory = true;
  return W;
}

// Every write under S (atomics count as memory writes). Fails on what this
// transform cannot reason about: calls to the unit's own functions, taking an
// address.
llvm::Expected<std::vector<Write>> writesIn(const UnitAST &U, const clang::Stmt *S) {
  std::vector<Write> Writes;
  std::optional<clang::SourceLocation> Bad;
  std::string Why;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X)) {
      if (Bin->isAssignmentOp())
        Writes.push_back(targetOf(Bin->getLHS()));
    } else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X)) {
      if (Un->isIncrementDecrementOp())
        Writes.push_back(targetOf(Un->getSubExpr()));
      else if (Un->getOpcode() == clang::UO_AddrOf && !Bad) {
        Bad = Un->getBeginLoc();
        Why = "the kernel takes an address";
      }
    } else if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(X)) {
      StmtContents C = inspectStmt(*Call);
      if (C.Atomic) {
        Write W;
        W.Memory = true;
        W.At = Call;
        Writes.push_back(W);
      }
      if ((C.UserCall || C.Barrier || C.WarpIntrinsic) && !Bad) {
        Bad = Call->getBeginLoc();
        Why = "a call this transform cannot see through";
      }
    }
  });
  if (Bad)
    return unsupported(U, *Bad, Why);
  return Writes;
}

bool containsLoop(const clang::Stmt *S) {
  bool Found = false;
  forEachStmt(S, [&](const clang::Stmt *X) {
    Found |= llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(X);
  });
  return Found;
}

bool mentions(const clang::Stmt *S, const clang::VarDecl *V) {
  bool Found = false;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X))
      Found |= Ref->getDecl() == V;
  });
  return Found;
}

unsigned countRefs(const clang::Stmt *S, const clang::VarDecl *V) {
  unsigned N = 0;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X))
      N += Ref->getDecl() == V;
  });
  return N;
}

// Whether S may read memory: a subscript, a dereference or an arrow.
bool readsMemory(const clang::Stmt *S) {
  bool Found = false;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X))
      Found |= Un->getOpcode() == clang::UO_Deref;
    else if (const auto *Member = llvm::dyn_cast<clang::MemberExpr>(X))
      Found |= Member->isArrow();
    else
      Found |= llvm::isa<clang::ArraySubscriptExpr>(X);
  });
  return Found;
}

// The variables declared under S.
std::set<const clang::VarDecl *> declaredIn(const clang::Stmt *S) {
  std::set<const clang::VarDecl *> Vars;
  forEachStmt(S, [&](const clang::Stmt *X) {
    if (const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(X))
      for (const clang::Decl *D : Decl->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D))
          Vars.insert(V);
  });
  return Vars;
}

enum class Fold { Sum, Max, Min };

struct Reduction {
  const clang::VarDecl *Var = nullptr;
  Fold Kind = Fold::Sum;
  std::string Combine; // The function that combines two partials; empty for a sum.
  unsigned Refs = 0;   // How many times the updates name the variable.
};

// One update of the reduction variable S: S += e, or S = f(S, e) / f(e, S)
// with f a max or min; e does not mention S.
std::optional<Reduction> reductionUpdate(const UnitAST &U, const clang::BinaryOperator &Bin,
                                         const clang::VarDecl *S) {
  if (varOf(Bin.getLHS()) != S)
    return std::nullopt;
  Reduction R;
  R.Var = S;
  if (Bin.getOpcode() == clang::BO_AddAssign) {
    if (mentions(Bin.getRHS(), S))
      return std::nullopt;
    R.Refs = 1;
    return R;
  }
  if (Bin.getOpcode() != clang::BO_Assign)
    return std::nullopt;
  // s = s + e, s = e + s.
  if (const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(Bin.getRHS()->IgnoreParenImpCasts());
      Add && Add->getOpcode() == clang::BO_Add) {
    const clang::Expr *A = Add->getLHS(), *B = Add->getRHS();
    if ((varOf(A) == S && !mentions(B, S)) || (varOf(B) == S && !mentions(A, S))) {
      R.Refs = 2;
      return R;
    }
  }
  const auto *Call = llvm::dyn_cast<clang::CallExpr>(Bin.getRHS()->IgnoreParenImpCasts());
  if (!Call || Call->getNumArgs() != 2 || !Call->getDirectCallee() ||
      !Call->getDirectCallee()->getDeclName().isIdentifier())
    return std::nullopt;
  llvm::StringRef Name = Call->getDirectCallee()->getName();
  if (Name == "fmaxf" || Name == "fmax" || Name == "max")
    R.Kind = Fold::Max;
  else if (Name == "fminf" || Name == "fmin" || Name == "min")
    R.Kind = Fold::Min;
  else
    return std::nullopt;
  const clang::Expr *A = Call->getArg(0), *B = Call->getArg(1);
  if (varOf(A) == S && !mentions(B, S)) {
  } else if (varOf(B) == S && !mentions(A, S)) {
  } else {
    return std::nullopt;
  }
  llvm::Expected<std::string> Callee = exprText(U, *Call->getCallee());
  if (!Callee) {
    llvm::consumeError(Callee.takeError());
    return std::nullopt;
  }
  R.Combine = *Callee;
  R.Refs = 2;
  return R;
}

// The types the warp shuffle moves.
bool shuffleType(clang::QualType T) {
  const auto *B = T.getCanonicalType()->getAs<clang::BuiltinType>();
  if (!B)
    return false;
  switch (B->getKind()) {
  case clang::BuiltinType::Int:
  case clang::BuiltinType::UInt:
  case clang::BuiltinType::Long:
  case clang::BuiltinType::ULong:
  case clang::BuiltinType::LongLong:
  case clang::BuiltinType::ULongLong:
  case clang::BuiltinType::Float:
  case clang::BuiltinType::Double:
    return true;
  default:
    return false;
  }
}

// Walks the kernel body, checks each statement and queues the edits.
class Planner {
public:
  explicit Planner(UnitAST &AST) : U(AST) {
    // Where a pointer is reassigned, its initializer no longer says where it
    // points.
    forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
      const clang::Expr *Target = nullptr;
      if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X); Bin && Bin->isAssignmentOp())
        Target = Bin->getLHS();
      else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X);
               Un && Un->isIncrementDecrementOp())
        Target = Un->getSubExpr();
      if (const clang::VarDecl *V = Target ? varOf(Target) : nullptr)
        PointerAssigned |= V->getType()->isPointerType();
    });
  }

  llvm::Error statement(const clang::Stmt *S, bool Tail) {
    if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(S)) {
      size_t I = 0, N = Block->size();
      for (const clang::Stmt *Child : Block->body())
        if (llvm::Error E = statement(Child, Tail && ++I == N))
          return E;
      return llvm::Error::success();
    }
    if (llvm::isa<clang::AttributedStmt>(S) && containsLoop(S))
      return unsupported(U, S->getBeginLoc(), "a row loop under a pragma");
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      return loop(*For, Tail);
    if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S); If && containsLoop(S)) {
      if (If->getInit() || If->getConditionVariable() || If->isConstexpr())
        return unsupported(U, If->getBeginLoc(), "an if with a declaration around a row loop");
      llvm::Expected<std::vector<Write>> Writes = writesIn(U, If->getCond());
      if (!Writes)
        return Writes.takeError();
      if (!Writes->empty())
        return unsupported(U, If->getBeginLoc(), "a condition that assigns");
      Fenced &= !readsMemory(If->getCond());
      bool Entry = Fenced;
      if (llvm::Error E = statement(If->getThen(), Tail))
        return E;
      Fenced = Entry;
      if (If->getElse())
        if (llvm::Error E = statement(If->getElse(), Tail))
          return E;
      Fenced = false; // Conservatively: either branch may have read memory.
      return llvm::Error::success();
    }
    if (containsLoop(S))
      return unsupported(U, S->getBeginLoc(), "a loop that is not a counted for loop");
    return plain(*S, Tail);
  }

  unsigned Loops = 0, Reductions = 0;

private:
  // A thread may run ahead into a store while another still reads what the
  // store overwrites: a barrier first, unless none of the block's threads
  // read memory since the last one.
  std::string fence() {
    std::string Text = Fenced ? "" : "__syncthreads();\n";
    Fenced = true;
    return Text;
  }

  // A statement without loops: every thread runs it, unless it writes memory,
  // which thread 0 alone does (then the block waits for the store).
  llvm::Error plain(const clang::Stmt &S, bool Tail) {
    llvm::Expected<std::vector<Write>> Writes = writesIn(U, &S);
    if (!Writes)
      return Writes.takeError();
    bool Memory = false, Variable = false;
    for (const Write &W : *Writes)
      (W.Memory ? Memory : Variable) = true;
    if (!Memory) {
      Fenced &= !readsMemory(&S);
      return llvm::Error::success();
    }
    if (Variable || llvm::isa<clang::DeclStmt>(S) || inspectStmt(S).Control)
      return unsupported(U, S.getBeginLoc(),
                         "a statement that writes memory and also assigns a variable or returns");
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, S);
    if (!Range)
      return Range.takeError();
    // Braces keep the barriers with the statement where it is an if's branch.
    U.Rewrite.InsertTextBefore(Range->getBegin(), "{\n" + fence() + "if (threadIdx.x == 0) {\n");
    U.Rewrite.InsertTextAfter(Range->getEnd(), Tail ? "\n}\n}" : "\n}\n__syncthreads();\n}");
    Fenced = !Tail;
    return llvm::Error::success();
  }

  llvm::Error loop(const clang::ForStmt &For, bool Tail) {
    std::optional<CountedLoop> L = countedLoop(For, U);
    if (!L)
      return unsupported(U, For.getBeginLoc(), "a loop that is not for (int j = E0; j < E1; j++)");
    if (inspectStmt(*For.getBody()).Control)
      return unsupported(U, For.getBeginLoc(), "a row loop with return, break or continue");
    llvm::Expected<std::vector<Write>> Writes = writesIn(U, For.getBody());
    if (!Writes)
      return Writes.takeError();
    std::set<const clang::VarDecl *> Locals = declaredIn(For.getBody());
    std::set<const clang::VarDecl *> Outer;
    std::vector<const Write *> Memory;
    for (const Write &W : *Writes) {
      if (W.Memory)
        Memory.push_back(&W);
      else if (W.Var == L->Var)
        return unsupported(U, W.At->getBeginLoc(), "the loop assigns its own counter");
      else if (!Locals.count(W.Var))
        Outer.insert(W.Var);
    }
    for (const clang::VarDecl *V : Outer)
      if (mentions(L->Init, V) || mentions(L->Bound, V))
        return unsupported(U, For.getBeginLoc(), "the loop's bounds change in the loop");
    std::string Before, After;
    if (Memory.empty() && !Outer.empty()) {
      // One block reduction a variable, in declaration order, nested:
      // { start1 { start2 loop reduce2 } reduce1 }.
      std::vector<const clang::VarDecl *> Folded(Outer.begin(), Outer.end());
      const clang::SourceManager &SM = U.Ctx.getSourceManager();
      std::sort(Folded.begin(), Folded.end(),
                [&](const clang::VarDecl *A, const clang::VarDecl *B) {
                  return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
                });
      for (const clang::VarDecl *V : Folded) {
        llvm::Expected<std::pair<std::string, std::string>> Code = reduction(For, V);
        if (!Code)
          return Code.takeError();
        Before += Code->first;
        After = Code->second + After;
      }
      Fenced = true; // The reduction ends with a barrier.
    } else if (Outer.empty()) {
      if (llvm::Error E = checkMap(For, *L, Memory, Locals))
        return E;
      if (!Memory.empty()) {
        Before = fence();
        if (!Tail) // Later statements may read what the loop stored.
          After = "\n__syncthreads();";
      }
      Fenced = !Memory.empty() && !Tail ? true : !readsMemory(For.getBody()) && Fenced;
      if (!Before.empty() || !After.empty()) {
        Before = "{\n" + Before;
        After += "\n}";
      }
    } else {
      return unsupported(U, For.getBeginLoc(),
                         "the loop carries state other than reductions (a scan?)");
    }
    return stride(For, *L, Before, After);
  }

  // The loop's only outer variable is S: every update must fold the row into
  // it the same way, and nothing else in the loop may read it.
  llvm::Expected<std::pair<std::string, std::string>> reduction(const clang::ForStmt &For,
                                                                const clang::VarDecl *S) {
    std::optional<Reduction> R;
    unsigned Refs = 0;
    bool Bad = false;
    forEachStmt(For.getBody(), [&](const clang::Stmt *X) {
      const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X);
      if (!Bin || !Bin->isAssignmentOp() || targetOf(Bin->getLHS()).Var != S)
        return;
      std::optional<Reduction> One = reductionUpdate(U, *Bin, S);
      // An update inside another expression hands the partial on: t = (s += e).
      const clang::Stmt *Parent = parentOf(Bin, U.Ctx);
      if (!One || !Parent || llvm::isa<clang::Expr>(Parent) ||
          (R && (R->Kind != One->Kind || R->Combine != One->Combine))) {
        Bad = true;
        return;
      }
      R = One;
      Refs += One->Refs;
    });
    if (Bad || !R)
      return unsupported(U, For.getBeginLoc(),
                         "the loop updates '" + S->getName() +
                             "' other than by s += e or s = max/min(s, e)");
    if (countRefs(For.getBody(), S) != Refs)
      return unsupported(U, For.getBeginLoc(),
                         "the loop reads '" + S->getName() + "' outside its updates");
    if (!shuffleType(S->getType()))
      return unsupported(U, S->getLocation(),
                         "'" + S->getName() + "' has a type the warp shuffle cannot move");
    unsigned Site = Reductions++;
    std::string Name = S->getName().str();
    std::string T = typeText(S->getType(), U);
    std::string Red = "kopt_red" + std::to_string(Site);
    auto Combine = [&](llvm::StringRef A, llvm::StringRef B) {
      if (R->Kind == Fold::Sum)
        return (A + " + " + B).str();
      return (R->Combine + "(" + A + ", " + B + ")").str();
    };
    // A sum's starting value counts once: thread 0 keeps it, the others start
    // from zero. A max or min may start from it everywhere.
    std::string Before =
        R->Kind == Fold::Sum ? "{\nif (threadIdx.x != 0)\n  " + Name + " = 0;\n" : "{\n";
    std::string After = "\n{\n__shared__ " + T + " " + Red + "[32];\n" + T + " kopt_v = " + Name +
                        ";\nfor (int kopt_o = 16; kopt_o > 0; kopt_o >>= 1)\n  kopt_v = " +
                        Combine("kopt_v", "__shfl_xor_sync(0xffffffffu, kopt_v, kopt_o)") +
                        ";\nif ((threadIdx.x & 31u) == 0u)\n  " + Red +
                        "[threadIdx.x >> 5] = kopt_v;\n__syncthreads();\nkopt_v = " + Red +
                        "[0];\nfor (unsigned kopt_w = 1; kopt_w < (blockDim.x + 31u) >> 5; "
                        "++kopt_w)\n  kopt_v = " +
                        Combine("kopt_v", Red + "[kopt_w]") + ";\n__syncthreads();\n" + Name +
                        " = kopt_v;\n}\n}";
    return std::make_pair(Before, After);
  }

  // Whether E is the loop counter, perhaps converted.
  static bool isCounter(const clang::Expr *E, const clang::VarDecl *J) {
    E = E->IgnoreParens();
    while (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(E)) {
      if (!Cast->getType()->isIntegerType())
        return false;
      E = Cast->getSubExpr()->IgnoreParens();
    }
    return varOf(E) == J;
  }

  // Every store goes to p[j] or p[E + j] (E the same in all iterations), and
  // the loop touches p nowhere else: iterations are independent.
  llvm::Error checkMap(const clang::ForStmt &For, const CountedLoop &L,
                       const std::vector<const Write *> &Memory,
                       const std::set<const clang::VarDecl *> &Locals) {
    auto Invariant = [&](const clang::Expr *E) {
      if (E->HasSideEffects(U.Ctx) || mentions(E, L.Var))
        return false;
      for (const clang::VarDecl *V : Locals)
        if (mentions(E, V))
          return false;
      return true;
    };
    for (const Write *W : Memory) {
      if (!W->Subscript)
        return unsupported(U, W->At->getBeginLoc(), "a store that is not p[index]");
      const clang::Expr *Index = W->Subscript->getIdx()->IgnoreParenImpCasts();
      bool Form = isCounter(Index, L.Var);
      if (const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(Index);
          !Form && Add && Add->getOpcode() == clang::BO_Add)
        Form = (isCounter(Add->getLHS(), L.Var) && Invariant(Add->getRHS())) ||
               (isCounter(Add->getRHS(), L.Var) && Invariant(Add->getLHS()));
      if (!Form)
        return unsupported(U, W->At->getBeginLoc(),
                           "a store whose index is not j or E + j for the loop's j");
      std::string Text = U.text(W->Subscript->getIdx()->getSourceRange());
      if (Text.empty())
        return unsupported(U, W->At->getBeginLoc(), "a store index from a macro");
      // Every use of the pointer in the loop is the same element.
      unsigned Same = 0;
      forEachStmt(For.getBody(), [&](const clang::Stmt *X) {
        const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(X);
        if (Sub && varOf(Sub->getBase()) == W->Var &&
            U.text(Sub->getIdx()->getSourceRange()) == Text)
          ++Same;
      });
      if (Same != countRefs(For.getBody(), W->Var))
        return unsupported(U, W->At->getBeginLoc(),
                           "the loop reads '" + W->Var->getName() + "' at another index");
      // The loop must not reach the stored buffer through another pointer
      // (a parameter, or a local pointer into the same parameter).
      if (PointerAssigned)
        return unsupported(U, W->At->getBeginLoc(), "the kernel reassigns a pointer");
      std::set<const clang::VarDecl *> Stored = roots(W->Var);
      for (const clang::VarDecl *Other : pointersIn(For.getBody())) {
        if (Other == W->Var)
          continue;
        for (const clang::VarDecl *Root : roots(Other))
          if (Stored.count(Root))
            return unsupported(U, W->At->getBeginLoc(),
                               "the loop reaches the buffer of '" + W->Var->getName() +
                                   "' through '" + Other->getName() + "'");
      }
    }
    return llvm::Error::success();
  }

  // The parameters (or other origins) a pointer variable points into, through
  // the initializers of local pointers.
  static std::set<const clang::VarDecl *> roots(const clang::VarDecl *V, unsigned Depth = 0) {
    if (llvm::isa<clang::ParmVarDecl>(V) || !V->getInit() || Depth > 8)
      return {V};
    std::set<const clang::VarDecl *> Out;
    for (const clang::VarDecl *P : pointersIn(V->getInit()))
      if (P != V)
        for (const clang::VarDecl *R : roots(P, Depth + 1))
          Out.insert(R);
    if (Out.empty())
      Out.insert(V);
    return Out;
  }

  static std::set<const clang::VarDecl *> pointersIn(const clang::Stmt *E) {
    std::set<const clang::VarDecl *> Vars;
    forEachStmt(E, [&](const clang::Stmt *X) {
      if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X))
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
            V && V->getType()->isPointerType())
          Vars.insert(V);
    });
    return Vars;
  }

  // j starts at E0 + threadIdx.x and steps by blockDim.x; Before and After
  // wrap the loop.
  llvm::Error stride(const clang::ForStmt &For, const CountedLoop &L, const std::string &Before,
                     const std::string &After) {
    const clang::Expr *Inc = For.getInc();
    if (L.Init->getBeginLoc().isMacroID() || L.Init->getEndLoc().isMacroID() ||
        Inc->getBeginLoc().isMacroID() || Inc->getEndLoc().isMacroID())
      return unsupported(U, For.getBeginLoc(), "the loop's header comes from a macro");
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, For);
    if (!Range)
      return Range.takeError();
    std::string T = typeText(L.Var->getType(), U);
    std::string J = L.Var->getName().str();
    U.Rewrite.InsertTextBefore(L.Init->getBeginLoc(), "(");
    U.Rewrite.InsertTextAfterToken(L.Init->getEndLoc(), ") + (" + T + ")threadIdx.x");
    U.Rewrite.ReplaceText(Inc->getSourceRange(), J + " += (" + T + ")blockDim.x");
    if (!Before.empty())
      U.Rewrite.InsertTextBefore(Range->getBegin(), Before);
    if (!After.empty())
      U.Rewrite.InsertTextAfter(Range->getEnd(), After);
    ++Loops;
    return llvm::Error::success();
  }

  UnitAST &U;
  bool Fenced = true; // No thread has read memory since the last barrier.
  bool PointerAssigned = false;
};

class RowCooperative : public Transform {
public:
  llvm::StringRef id() const override { return "row-cooperative"; }

  std::vector<ParamSet> parameterSpace(const frontend::KernelSummary &Kernel) const override {
    if (!applicable(Kernel) || Kernel.Features.Loops.empty())
      return {};
    // The thread-per-row signature: lanes a row apart in some loop. Where the
    // loops' accesses are coalesced across threads already (a sum over the
    // middle dimension), one block per row reads strided and loses.
    // Through a pointer to rows (float (*A)[N], A[i][j]) the front end sees
    // A[i]: lanes that differ in i are a row apart.
    std::set<std::string> RowsOfArrays;
    for (const frontend::KernelParam &P : Kernel.Params)
      if (llvm::StringRef(P.Type).contains("(*)["))
        RowsOfArrays.insert(P.Name);
    bool Strided = false;
    for (const frontend::MemoryAccess &A : Kernel.Features.Accesses)
      Strided |= A.Loop >= 0 &&
                 (A.Pattern == frontend::AccessPattern::Strided ||
                  (A.Pattern == frontend::AccessPattern::Coalesced && RowsOfArrays.count(A.Param)));
    if (!Strided)
      return {};
    // A block wider than the row idles; a short row (a convolution window)
    // gains nothing.
    std::optional<int64_t> Trip = longestRowLoop(Kernel);
    std::vector<ParamSet> Space;
    for (int64_t B : Blocks)
      if (!Trip || B <= *Trip)
        Space.push_back({{"block", B}});
    if (Trip && *Trip < 64)
      return {};
    return Space;
  }

  llvm::Expected<TransformOutput> apply(const TransformInput &In,
                                        const ParamSet &Params) const override {
    if (llvm::Error E = checkParamNames(Params, {"block"}))
      return E;
    llvm::Expected<int64_t> Size = requireParam(Params, "block", {32, 64, 128, 256, 512, 1024});
    if (!Size)
      return Size.takeError();
    if (!applicable(In.Kernel))
      return llvm::createStringError("the kernel is not a 1D guarded kernel without grid-stride "
                                     "loops, shared memory, barriers or warp intrinsics");
    unsigned Loops = 0, Reductions = 0;
    // A global accumulator (y[i] += ...) or a counter declared before its loop
    // is first normalized (Normalization.h).
    llvm::Expected<NormalizedRewrite> Text =
        rewriteNormalized(In, idiomNormalizations(), [&](UnitAST &AST) -> llvm::Error {
          if (AST.Kernel.hasAttr<clang::CUDALaunchBoundsAttr>())
            return llvm::createStringError("the kernel has __launch_bounds__");
          llvm::Expected<GlobalIndexShape> Shape = findGlobalIndexShape(AST);
          if (!Shape)
            return Shape.takeError();
          if (Shape->GridStride)
            return llvm::createStringError("a grid-stride kernel");
          Planner Plan(AST);
          if (llvm::Error E = Plan.statement(AST.Kernel.getBody(), true))
            return E;
          if (Plan.Loops == 0)
            return llvm::createStringError("the kernel has no loop over a row");
          for (const clang::Expr *Index : Shape->Indices) {
            if (AST.Rewrite.ReplaceText(Index->getSourceRange(), "blockIdx.x"))
              return unsupported(AST, Index->getBeginLoc(), "cannot rewrite the global index");
          }
          Loops = Plan.Loops;
          Reductions = Plan.Reductions;
          return llvm::Error::success();
        });
    if (!Text)
      return Text.takeError();
    std::string B = std::to_string(*Size);
    frontend::LaunchMapping Launch;
    Launch.Grid[0] = "grid_x * block_x";
    Launch.Block[0] = B;
    return TransformOutput{std::move(Text->UnitText), Launch,
                           chainSummary(Text->Steps, "one block of " + B + " threads per row (" +
                                                         std::to_string(Loops) + " loops, " +
                                                         std::to_string(Reductions) +
                                                         " block reductions)")};
  }

private:
  // The trip count of the longest outermost loop where the pragma's args give
  // every outermost loop's bounds; empty where one is unknown.
  static std::optional<int64_t> longestRowLoop(const frontend::KernelSummary &Kernel) {
    if (!Kernel.Pragma)
      return std::nullopt;
    frontend::NumberBindings Args = frontend::resolveArgValues(*Kernel.Pragma);
    auto Value = [&](const std::string &Text) -> std::optional<int64_t> {
      llvm::Expected<frontend::ClauseExpr> E = frontend::parseExprText(Text);
      if (!E) {
        llvm::consumeError(E.takeError());
        return std::nullopt;
      }
      llvm::Expected<frontend::ClauseNumber> V = frontend::evaluateNumber(*E, Args);
      if (!V) {
        llvm::consumeError(V.takeError());
        return std::nullopt;
      }
      const int64_t *Int = std::get_if<int64_t>(&*V);
      return Int ? std::optional<int64_t>(*Int) : std::nullopt;
    };
    int64_t Longest = 0;
    for (const frontend::LoopFeature &L : Kernel.Features.Loops) {
      if (L.Depth != 0)
        continue;
      std::optional<int64_t> Init = Value(L.Init), Bound = Value(L.Bound);
      if (!Init || !Bound)
        return std::nullopt;
      Longest = std::max(Longest, *Bound - *Init + (L.Comparison == "<=" ? 1 : 0));
    }
    return Longest;
  }

  static bool applicable(const frontend::KernelSummary &Kernel) {
    if (!looksLike1DGuarded(Kernel))
      return false;
    for (const std::string &B : Kernel.Features.IndexBuiltins)
      if (llvm::StringRef(B).starts_with("gridDim"))
        return false;
    return true;
  }
};
} // namespace

std::unique_ptr<Transform> makeRowCooperativeTransform() {
  return std::make_unique<RowCooperative>();
}

} // namespace kopt::transform
