// vectorize-strided: a block- or grid-stride loop over contiguous elements,
//   for (int c = threadIdx.x; c < n; c += blockDim.x) y[c] = (x[c] - mu) * r;
//   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
// moves 16 bytes an access: a thread takes W consecutive elements a step
// (float4, int4, uint4; float2 and double2 where a double is among them), runs
// the body once for each of them, and afterwards the elements past the last
// whole group one at a time, as the original did. Vector accesses need every
// pointer 16-byte aligned: where one is not, the thread runs the original loop.
//
// The threads then split the range differently (thread t takes elements
// 4t..4t+3 where it took t), which is exact where
// - each iteration touches memory only at its own element: every access
//   through a pointer the body indexes with the counter is p[c], and the body
//   writes no other memory;
// - what an iteration leaves in the thread's variables is a sum, maximum or
//   minimum (s += e, s = fmaxf(s, e)) read nowhere else in the body: sums add
//   in another order (the transform declares that it reassociates);
// - every thread of the split reaches the loop with the same range and
//   pointers: the bound, the pointers and the conditions around the loop (or
//   around a return ahead of it, or a break in a loop around it) read no
//   threadIdx.x (for a grid stride, no blockIdx.x), and no variable the kernel
//   changes other than the counter of a loop around it that steps alike;
// - the body has no barrier, atomic, warp intrinsic, call of the unit's own
//   functions, return, break, continue or inner loop.
// A read through one vector pointer after a store through another is refused:
// the two may be the same memory.
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GlobalIndex.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/parallel/LoopWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <algorithm>
#include <map>
#include <set>

namespace kopt::transform {

namespace {

constexpr llvm::StringLiteral NoStridedLoop =
    "the kernel has no loop that steps by blockDim.x or blockDim.x * gridDim.x";

// The vector type of W elements of T, or "" where there is none.
std::string vectorTypeOf(clang::QualType T, int64_t W) {
  const auto *B = T.getCanonicalType()->getAs<clang::BuiltinType>();
  if (!B)
    return "";
  std::string N = std::to_string(W);
  switch (B->getKind()) {
  case clang::BuiltinType::Float:
    return "float" + N;
  case clang::BuiltinType::Int:
    return "int" + N;
  case clang::BuiltinType::UInt:
    return "uint" + N;
  case clang::BuiltinType::Double:
    return W == 2 ? "double2" : "";
  default:
    return "";
  }
}

// How the loop's threads split its range: by the threads of a block, or by
// every thread of the grid (x dimension).
enum class Stride { Block, Grid };

// One pointer the body indexes with the counter.
struct VectorPointer {
  const clang::VarDecl *Var = nullptr;
  clang::QualType Element;
  bool Load = false, Store = false;
  std::vector<const clang::ArraySubscriptExpr *> Accesses;
};

// What one loop becomes, before its text is written.
struct StridedLoop {
  const clang::ForStmt *For = nullptr;
  const clang::VarDecl *Counter = nullptr;
  const clang::Expr *Start = nullptr, *Bound = nullptr;
  Stride How = Stride::Block;
  std::vector<VectorPointer> Pointers; // In the order the body first names them.
  int64_t Width = 4;
};

// The one variable For's init declares, with its initializer; null otherwise.
const clang::VarDecl *declaredCounter(const clang::ForStmt &For) {
  const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(For.getInit());
  const auto *C = Init && Init->isSingleDecl()
                      ? llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl())
                      : nullptr;
  return C && C->getInit() ? C : nullptr;
}

// The condition of an if, loop or switch; null for other statements.
const clang::Expr *conditionOf(const clang::Stmt *S) {
  if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S))
    return If->getCond();
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
    return For->getCond();
  if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(S))
    return While->getCond();
  if (const auto *Do = llvm::dyn_cast<clang::DoStmt>(S))
    return Do->getCond();
  if (const auto *Switch = llvm::dyn_cast<clang::SwitchStmt>(S))
    return Switch->getCond();
  return nullptr;
}

class LoopCheck {
public:
  LoopCheck(const UnitAST &Unit, const std::set<const clang::VarDecl *> &ChangedVars)
      : U(Unit), Changed(ChangedVars) {}

  // How For's threads split its range, where it declares a counter that steps
  // by the block's or the grid's threads: the loops the transform looks at (the
  // others are not its business). c = threadIdx.x with c += blockDim.x, or c =
  // blockIdx.x * blockDim.x + threadIdx.x with c += blockDim.x * gridDim.x
  // (builtins through unchanged locals); the counter changes nowhere else.
  std::optional<Stride> strideOf(const clang::ForStmt &For) const {
    const clang::VarDecl *C = declaredCounter(For);
    const auto *Inc = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(For.getInc());
    if (!C || !Inc || Inc->getOpcode() != clang::BO_AddAssign || !isVarRef(Inc->getLHS(), C) ||
        changedVariables(For.getBody()).count(C))
      return std::nullopt;
    const clang::Expr *Step = Inc->getRHS();
    if (isBuiltin(C->getInit(), "threadIdx") && isBuiltin(Step, "blockDim"))
      return Stride::Block;
    if (positionSumDimThroughLocals(*C->getInit(), Changed) == 'x' &&
        isGridStrideProduct(valueOf(Step)))
      return Stride::Grid;
    return std::nullopt;
  }

  // For, a loop strideOf splits How.
  llvm::Expected<StridedLoop> check(const clang::ForStmt &For, Stride How) const {
    StridedLoop L;
    L.For = &For;
    L.How = How;
    L.Counter = declaredCounter(For);
    if (!L.Counter->getType()->isIntegerType())
      return unsupported(U, For.getBeginLoc(), "the loop does not declare an integer counter");
    L.Start = L.Counter->getInit();
    const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
        For.getCond() ? For.getCond()->IgnoreParens() : nullptr);
    if (!Cond || Cond->getOpcode() != clang::BO_LT || !isVarRef(Cond->getLHS(), L.Counter))
      return unsupported(U, For.getBeginLoc(), "the loop's condition is not 'counter < bound'");
    L.Bound = Cond->getRHS();
    if (mentions(L.Bound, L.Counter) || hasEffects(L.Bound, U.Ctx))
      return unsupported(U, L.Bound->getBeginLoc(), "the bound changes or has side effects");
    const clang::Stmt *Body = For.getBody();
    StmtContents Contents = inspectStmt(*Body);
    if (Contents.Barrier || Contents.Atomic || Contents.WarpIntrinsic || Contents.Control ||
        Contents.UserCall || containsLoop(Body))
      return unsupported(U, Body->getBeginLoc(),
                         "the body synchronizes, leaves the loop, calls the unit's functions or "
                         "holds a loop");
    if (llvm::Error E = checkUniform(For, How, L))
      return E;
    if (llvm::Error E = collectPointers(L))
      return E;
    if (llvm::Error E = checkWrites(L))
      return E;
    return L;
  }

private:
  // The value E names: the initializer of an unchanged local, else E.
  const clang::Expr *valueOf(const clang::Expr *E) const {
    E = E->IgnoreParenImpCasts();
    const clang::VarDecl *V = namedVariable(E);
    if (V && V->isLocalVarDecl() && V->getInit() && !Changed.count(V))
      return V->getInit()->IgnoreParenImpCasts();
    return E;
  }

  bool isBuiltin(const clang::Expr *E, llvm::StringRef Var) const {
    std::optional<frontend::IndexBuiltin> B = builtinThroughLocal(E, Changed);
    return B && B->Var == Var && B->Component == 'x';
  }

  // Whether E has the same value in every thread that splits Loop's range: it
  // reads no threadIdx.x (for a grid stride, no blockIdx.x), directly or through
  // locals, and each variable it reads that the kernel changes is the counter
  // of a loop around Loop that starts and steps the same in those threads.
  bool uniform(const clang::Expr *E, const clang::ForStmt &Loop, Stride How,
               unsigned Depth = 0) const {
    if (frontend::anySubExpr(E, [&](const clang::Expr *S) {
          std::optional<frontend::IndexBuiltin> B = frontend::asIndexBuiltin(S);
          return B && B->Component == 'x' &&
                 (B->Var == "threadIdx" || (How == Stride::Grid && B->Var == "blockIdx"));
        }))
      return false;
    bool Same = true;
    forEachStmt(E, [&](const clang::Stmt *S) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
      const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
      if (!Same || !V || !V->hasLocalStorage())
        return;
      if (Changed.count(V))
        Same = outerCounterStepsAlike(V, Loop, How, Depth);
      else if (V->getInit() && !llvm::isa<clang::ParmVarDecl>(V))
        Same = Depth < 4 && uniform(V->getInit(), Loop, How, Depth + 1);
    });
    return Same;
  }

  // V is declared by a for loop around Loop, starts and steps alike in the
  // threads that split Loop's range, and changes nowhere else.
  bool outerCounterStepsAlike(const clang::VarDecl *V, const clang::ForStmt &Loop, Stride How,
                              unsigned Depth) const {
    for (const clang::Stmt *Up = parentOf(&Loop, U.Ctx); Up; Up = parentOf(Up, U.Ctx)) {
      const auto *Outer = llvm::dyn_cast<clang::ForStmt>(Up);
      if (!Outer || declaredCounter(*Outer) != V)
        continue;
      if (Depth >= 4 || !uniform(V->getInit(), Loop, How, Depth + 1) ||
          changedVariables(Outer->getBody()).count(V))
        return false;
      const clang::Expr *Inc = Outer->getInc();
      if (const auto *Un = llvm::dyn_cast_or_null<clang::UnaryOperator>(Inc))
        return Un->isIncrementDecrementOp() && isVarRef(Un->getSubExpr(), V);
      const auto *Step = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(Inc);
      return Step && isVarRef(Step->getLHS(), V) && uniform(Step->getRHS(), Loop, How, Depth + 1);
    }
    return false;
  }

  // Every thread of the split must reach the loop, and see the same bound.
  llvm::Error checkUniform(const clang::ForStmt &For, Stride How, const StridedLoop &Loop) const {
    if (!uniform(Loop.Bound, For, How))
      return unsupported(U, Loop.Bound->getBeginLoc(),
                         "the bound differs between the threads that split the range");
    if (readsMemory(Loop.Bound) && writesMemory(For.getBody()))
      return unsupported(U, Loop.Bound->getBeginLoc(),
                         "the bound reads memory that the loop may write");
    auto CheckAround = [&](const clang::Stmt *From) -> llvm::Error {
      for (const clang::Stmt *Up = parentOf(From, U.Ctx); Up; Up = parentOf(Up, U.Ctx))
        if (const clang::Expr *C = conditionOf(Up); C && !uniform(C, For, How))
          return unsupported(U, C->getBeginLoc(),
                             "a condition around the loop differs between the threads that "
                             "split its range");
      return llvm::Error::success();
    };
    if (llvm::Error E = CheckAround(&For))
      return E;
    // A thread that left before the loop (or left a loop around it, which
    // brings it back here) leaves its part undone.
    const clang::SourceManager &SM = U.Ctx.getSourceManager();
    std::vector<const clang::Stmt *> Around;
    for (const clang::Stmt *Up = parentOf(&For, U.Ctx); Up; Up = parentOf(Up, U.Ctx))
      if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(Up))
        Around.push_back(Up);
    auto Reaches = [&](const clang::Stmt *S) {
      if (SM.isBeforeInTranslationUnit(S->getBeginLoc(), For.getBeginLoc()))
        return true;
      return std::any_of(Around.begin(), Around.end(), [&](const clang::Stmt *A) {
        return SM.isPointWithin(S->getBeginLoc(), A->getBeginLoc(), A->getEndLoc());
      });
    };
    llvm::Error Result = llvm::Error::success();
    forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
      if (Result ||
          !llvm::isa<clang::ReturnStmt, clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt>(
              S) ||
          !Reaches(S))
        return;
      if (llvm::Error E = CheckAround(S))
        Result = std::move(E);
    });
    return Result;
  }

  static bool writesMemory(const clang::Stmt *S) {
    bool Found = false;
    forEachStmt(S, [&](const clang::Stmt *X) {
      const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(X);
      const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X);
      if (Bin && Bin->isAssignmentOp())
        Found |= targetOf(Bin->getLHS()).Memory;
      if (Un && Un->isIncrementDecrementOp())
        Found |= targetOf(Un->getSubExpr()).Memory;
    });
    return Found;
  }

  // The pointers the body indexes with the counter: each named in the body only
  // as p[c], unchanged in the kernel and the same in every thread of the split.
  llvm::Error collectPointers(StridedLoop &Loop) const {
    const clang::Stmt *Body = Loop.For->getBody();
    std::map<const clang::VarDecl *, size_t> Index;
    std::map<const clang::VarDecl *, unsigned> Subscripts;
    llvm::Error Result = llvm::Error::success();
    forEachStmt(Body, [&](const clang::Stmt *S) {
      const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(S);
      if (Result || !Sub || !isVarRef(Sub->getIdx(), Loop.Counter))
        return;
      const clang::VarDecl *P = varOf(Sub->getBase());
      if (!P || !P->getType()->isPointerType()) {
        Result = unsupported(U, Sub->getBeginLoc(),
                             "the counter indexes something other than a pointer variable");
        return;
      }
      auto [It, New] = Index.try_emplace(P, Loop.Pointers.size());
      if (New)
        Loop.Pointers.push_back({P, P->getType()->getPointeeType(), false, false, {}});
      Loop.Pointers[It->second].Accesses.push_back(Sub);
      ++Subscripts[P];
    });
    if (Result)
      return Result;
    if (Loop.Pointers.empty())
      return unsupported(U, Loop.For->getBeginLoc(), "the body accesses no p[counter]");
    bool Double = false;
    for (const VectorPointer &P : Loop.Pointers) {
      if (countRefs(Body, P.Var) != Subscripts[P.Var])
        return unsupported(U, P.Accesses.front()->getBeginLoc(),
                           "'" + P.Var->getName() + "' is used other than as " + P.Var->getName() +
                               "[" + Loop.Counter->getName() + "]");
      if (Changed.count(P.Var))
        return unsupported(U, P.Accesses.front()->getBeginLoc(),
                           "the pointer '" + P.Var->getName() + "' changes in the kernel");
      if (!llvm::isa<clang::ParmVarDecl>(P.Var) &&
          (!P.Var->getInit() || !uniform(P.Var->getInit(), *Loop.For, Loop.How)))
        return unsupported(U, P.Var->getLocation(),
                           "the pointer '" + P.Var->getName() +
                               "' differs between the threads that split the range");
      if (vectorTypeOf(P.Element, 4).empty() && vectorTypeOf(P.Element, 2).empty())
        return unsupported(U, P.Accesses.front()->getBeginLoc(),
                           "'" + P.Var->getName() +
                               "' holds elements of a type without a vector type here "
                               "(float, int, unsigned int, double)");
      Double |= U.Ctx.getTypeSize(P.Element) == 64;
    }
    Loop.Width = Double ? 2 : 4;
    return llvm::Error::success();
  }

  // Memory written only at p[c] of a vector pointer, by statements of the body's
  // own (unconditional) list; the thread's other variables folded only.
  llvm::Error checkWrites(StridedLoop &Loop) const {
    const clang::Stmt *Body = Loop.For->getBody();
    llvm::Expected<std::vector<Write>> Writes = writesIn(U, Body);
    if (!Writes)
      return Writes.takeError();
    std::set<const clang::VarDecl *> Local = declaredIn(Body);
    std::set<const clang::Stmt *> TopLevel;
    if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Body))
      TopLevel.insert(Block->body_begin(), Block->body_end());
    else
      TopLevel.insert(Body);
    std::set<const clang::VarDecl *> Folded;
    for (const Write &W : *Writes) {
      if (W.Memory) {
        auto It = std::find_if(Loop.Pointers.begin(), Loop.Pointers.end(),
                               [&](const VectorPointer &P) { return P.Var == W.Var; });
        const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(W.At->IgnoreParenImpCasts());
        if (It == Loop.Pointers.end() || !Sub || !isVarRef(Sub->getIdx(), Loop.Counter))
          return unsupported(U, W.At->getBeginLoc(),
                             "the body writes memory other than its own element");
        const clang::Stmt *Update = parentPastParensAndCasts(W.At, U.Ctx);
        if (!Update || !TopLevel.count(Update))
          return unsupported(U, W.At->getBeginLoc(),
                             "a store that not every iteration makes (it is under a condition "
                             "or inside an expression)");
        It->Store = true; // Load: below, with the reads.
        continue;
      }
      if (!W.Var)
        return unsupported(U, W.At->getBeginLoc(), "a write this transform cannot follow");
      if (W.Var == Loop.Counter)
        return unsupported(U, W.At->getBeginLoc(), "the counter changes in the body");
      if (!Local.count(W.Var))
        Folded.insert(W.Var);
    }
    for (const clang::VarDecl *V : Folded)
      if (llvm::Error E = checkFold(Body, V))
        return E;
    // Loads: every pointer read somewhere. A read must come before every store
    // through another pointer (a store happens where its assignment ends).
    const clang::SourceManager &SM = U.Ctx.getSourceManager();
    std::vector<std::pair<const VectorPointer *, clang::SourceLocation>> Stores;
    std::vector<std::pair<const VectorPointer *, const clang::ArraySubscriptExpr *>> Reads;
    for (VectorPointer &P : Loop.Pointers)
      for (const clang::ArraySubscriptExpr *A : P.Accesses) {
        const auto *Assign =
            llvm::dyn_cast_or_null<clang::BinaryOperator>(parentPastParensAndCasts(A, U.Ctx));
        bool Target =
            Assign && Assign->isAssignmentOp() && Assign->getLHS()->IgnoreParenImpCasts() == A;
        if (Target)
          Stores.push_back({&P, Assign->getEndLoc()});
        if (!Target || Assign->getOpcode() != clang::BO_Assign) {
          P.Load = true;
          Reads.push_back({&P, A});
        }
      }
    for (const auto &[Read, A] : Reads)
      for (const auto &[Stored, At] : Stores)
        if (Stored != Read && SM.isBeforeInTranslationUnit(At, A->getBeginLoc()))
          return unsupported(U, A->getBeginLoc(),
                             "a read of '" + Read->Var->getName() +
                                 "' after a store through another pointer, which may be the "
                                 "same memory");
    // Other memory read after a store may be that store's (the variant stores a
    // group at its end); the thread's own arrays and shared memory are not.
    std::set<const clang::Stmt *> VectorAccesses;
    for (const VectorPointer &P : Loop.Pointers)
      VectorAccesses.insert(P.Accesses.begin(), P.Accesses.end());
    std::optional<clang::SourceLocation> Late;
    forEachStmt(Body, [&](const clang::Stmt *X) {
      if (Late || Stores.empty() || VectorAccesses.count(X))
        return;
      const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(X);
      const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(X);
      const auto *Member = llvm::dyn_cast<clang::MemberExpr>(X);
      bool ReadsMemory =
          (Un && Un->getOpcode() == clang::UO_Deref) || (Member && Member->isArrow());
      if (Sub) {
        std::optional<Subscripted> Target = subscripted(Sub);
        const clang::VarDecl *Base = Target ? Target->Base : nullptr;
        ReadsMemory = !(Base && ((Base->hasLocalStorage() && Base->getType()->isArrayType()) ||
                                 Base->hasAttr<clang::CUDASharedAttr>()));
      }
      if (!ReadsMemory)
        return;
      for (const auto &[Stored, At] : Stores)
        if (SM.isBeforeInTranslationUnit(At, X->getBeginLoc()))
          Late = X->getBeginLoc();
    });
    if (Late)
      return unsupported(U, *Late,
                         "a read of memory after a store through a pointer, which may be the "
                         "same memory");
    for (const VectorPointer &P : Loop.Pointers)
      if (P.Store && P.Element.isConstQualified())
        return unsupported(U, P.Accesses.front()->getBeginLoc(), "a store through a const pointer");
    return llvm::Error::success();
  }

  // Every update of V is s += e, s -= e or s = max/min(s, e), the same kind each
  // time, and nothing else in the body reads V.
  llvm::Error checkFold(const clang::Stmt *Body, const clang::VarDecl *V) const {
    std::optional<VarFolds> Folds = foldsOf(U, Body, V);
    if (!Folds || countRefs(Body, V) != Folds->Refs)
      return unsupported(U, Body->getBeginLoc(),
                         "the loop carries '" + V->getName() +
                             "' from one element to the next other than as a sum, maximum or "
                             "minimum");
    return llvm::Error::success();
  }

  const UnitAST &U;
  const std::set<const clang::VarDecl *> &Changed;
};

// The loop's text: the vector loop, then the original loop for the rest.
llvm::Error emit(UnitAST &U, const StridedLoop &L, unsigned Number) {
  static const char *Lanes[] = {"x", "y", "z", "w"};
  std::string N = std::to_string(Number), W = std::to_string(L.Width);
  std::string T = typeText(L.Counter->getType(), U), C = L.Counter->getNameAsString();
  llvm::Expected<std::string> Start = exprText(U, *L.Start);
  llvm::Expected<std::string> Bound = exprText(U, *L.Bound);
  if (!Start)
    return Start.takeError();
  if (!Bound)
    return Bound.takeError();
  const clang::Stmt &LoopStmt = outermostLoopStmt(U, *L.For);
  llvm::Expected<clang::CharSourceRange> Whole = statementRange(U, LoopStmt);
  llvm::Expected<clang::CharSourceRange> Body = statementRange(U, *L.For->getBody());
  if (!Whole)
    return Whole.takeError();
  if (!Body)
    return Body.takeError();

  std::string Q = "kopt_q" + N, Groups = "kopt_groups" + N;
  auto VectorName = [&](const VectorPointer &P) {
    return "kopt_v" + N + "_" + P.Var->getNameAsString();
  };
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "{ // kopt vectorize-strided: " << W << " elements a thread and step\n"
     << "const bool kopt_aligned" << N << " = ((";
  for (size_t I = 0; I < L.Pointers.size(); ++I)
    OS << (I ? " | " : "") << "reinterpret_cast<unsigned long long>("
       << L.Pointers[I].Var->getName() << ")";
  OS << ") % 16) == 0;\n"
     << "const " << T << " " << Groups << " = kopt_aligned" << N << " && (" << *Bound
     << ") > 0 ? static_cast<" << T << ">((" << *Bound << ") / " << W << ") : static_cast<" << T
     << ">(0);\n"
     << "for (" << T << " " << Q << " = " << *Start << "; " << Q << " < " << Groups << "; " << Q
     << " += ";
  llvm::Expected<std::string> Step =
      exprText(U, *llvm::cast<clang::CompoundAssignOperator>(L.For->getInc())->getRHS());
  if (!Step)
    return Step.takeError();
  OS << "(" << *Step << ")) {\n";
  for (const VectorPointer &P : L.Pointers) {
    std::string VT = vectorTypeOf(P.Element, L.Width);
    OS << "  " << VT << " " << VectorName(P);
    if (P.Load)
      OS << " = reinterpret_cast<const " << VT << " *>(" << P.Var->getName() << ")[" << Q << "]";
    OS << ";\n";
  }
  for (int64_t Lane = 0; Lane < L.Width; ++Lane) {
    std::vector<TextEdit> Edits;
    for (const VectorPointer &P : L.Pointers)
      for (const clang::ArraySubscriptExpr *A : P.Accesses)
        Edits.push_back({A->getSourceRange(), VectorName(P) + "." + Lanes[Lane]});
    llvm::Expected<std::string> Text = editedText(U, *Body, std::move(Edits));
    if (!Text)
      return Text.takeError();
    OS << "  {\n    const " << T << " " << C << " = static_cast<" << T << ">(" << Q << " * " << W
       << " + " << Lane << ");\n    (void)" << C << ";\n    " << *Text << "\n  }\n";
  }
  for (const VectorPointer &P : L.Pointers)
    if (P.Store)
      OS << "  reinterpret_cast<" << vectorTypeOf(P.Element, L.Width) << " *>(" << P.Var->getName()
         << ")[" << Q << "] = " << VectorName(P) << ";\n";
  OS << "}\n";
  // The rest, and every element where a pointer is not aligned: the loop as
  // written, from the first element past the groups.
  llvm::Expected<std::string> Rest =
      editedText(U, *Whole,
                 {{L.Start->getSourceRange(),
                   "static_cast<" + T + ">(" + Groups + " * " + W + ") + (" + *Start + ")"}});
  if (!Rest)
    return Rest.takeError();
  OS << *Rest << "\n}";
  U.Rewrite.ReplaceText(*Whole, Out);
  return llvm::Error::success();
}

class VectorizeStrided : public Transform {
public:
  llvm::StringRef id() const override { return "vectorize-strided"; }
  // Each thread sums other elements, in another order.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    for (const frontend::LoopFeature &L : Kernel.Features.Loops)
      if (frontend::stepsByThreads(Kernel.Features, L))
        return Offer::of({ParamSet{}});
    return Offer::no(NoStridedLoop.str());
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    unsigned Loops = 0;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &U) -> llvm::Error {
      std::set<const clang::VarDecl *> Changed = changedVariables(U.Kernel.getBody());
      LoopCheck Check(U, Changed);
      std::vector<StridedLoop> Found;
      std::optional<llvm::Error> FirstRefusal;
      forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
        const auto *For = llvm::dyn_cast<clang::ForStmt>(S);
        std::optional<Stride> How = For ? Check.strideOf(*For) : std::nullopt;
        if (!How)
          return;
        llvm::Expected<StridedLoop> L = Check.check(*For, *How);
        if (L)
          Found.push_back(*L);
        else if (!FirstRefusal)
          FirstRefusal = L.takeError();
        else
          llvm::consumeError(L.takeError());
      });
      if (Found.empty())
        return FirstRefusal ? std::move(*FirstRefusal)
                            : unsupported(U, U.Kernel.getLocation(), NoStridedLoop);
      if (FirstRefusal)
        llvm::consumeError(std::move(*FirstRefusal));
      for (const StridedLoop &L : Found)
        if (llvm::Error E = emit(U, L, Loops++))
          return E;
      return llvm::Error::success();
    });
    if (!Text)
      return Text.takeError();
    return TransformOutput{std::move(*Text), std::nullopt,
                           "16-byte vector accesses in " + std::to_string(Loops) +
                               (Loops == 1 ? " strided loop" : " strided loops")};
  }
};
} // namespace

std::unique_ptr<Transform> makeVectorizeStridedTransform() {
  return std::make_unique<VectorizeStrided>();
}

} // namespace kopt::transform
