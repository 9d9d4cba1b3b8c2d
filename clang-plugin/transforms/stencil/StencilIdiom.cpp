#include "clang-plugin/transforms/stencil/StencilIdiom.h"

#include "clang-plugin/transforms/framework/TransformSupport.h"

#include "clang-plugin/analysis/AccessOffsets.h"
#include "clang-plugin/analysis/ArrayAccesses.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <set>

namespace kopt::transform {

namespace {
using frontend::AccessForm;
using frontend::AccessShape;
using frontend::AtomKind;
using frontend::IndexPoly;
using frontend::IndexPolyBuilder;

constexpr int64_t MaxRadius = 4;       // Offsets a tile's halo covers, each side.
constexpr size_t MaxLoopValues = 4096; // Loop variable assignments enumerated for one read.
constexpr size_t MaxLeaves = 16;       // Ways one clamped read may resolve.

std::string dimName(int C) { return std::string(1, char('x' + C)); }

using Access = frontend::ArrayAccess;

clang::SourceLocation accessLoc(const Access &A) {
  return A.top() ? A.top()->getBeginLoc() : A.Use->getBeginLoc();
}

// Loops with literal bounds whose body runs every iteration to its end: their
// variables are enumerated.
void findLiteralLoops(const UnitAST &U, IndexPolyBuilder &B, StencilIdiom &S) {
  for (const auto &[V, Range] : frontend::literalLoops(U.Kernel, U.Ctx)) {
    B.addLoopVar(V);
    S.Loops[V] = {Range.first, Range.second};
  }
}

// The for-loop variable without literal bounds that E reads, if any.
const clang::VarDecl *openLoopVar(const clang::Expr *E, const ReachPath &Path,
                                  const StencilIdiom &S) {
  const clang::VarDecl *Found = nullptr;
  forEachStmt(E, [&](const clang::Stmt *St) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St);
    if (!Ref || Found)
      return;
    for (const clang::ForStmt *For : Path.Loops)
      if (const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit()))
        for (const clang::Decl *D : Decl->decls())
          if (D == Ref->getDecl() && !S.Loops.count(llvm::cast<clang::VarDecl>(D)))
            Found = llvm::cast<clang::VarDecl>(D);
  });
  return Found;
}

// The ways a clamped coordinate (min, max, ?:) resolves.
struct DimLeaf {
  IndexPoly Delta;
  std::vector<Condition> Conds;
  bool Fixed = false;
};

class ClampLeaves {
public:
  ClampLeaves(IndexPolyBuilder &Builder, char D) : B(Builder), Dim(D) {}

  llvm::Error visit(const clang::Expr *E, std::vector<Condition> Conds) {
    if (Leaves.size() > MaxLeaves)
      return B.error(E->getBeginLoc(), "a clamp with too many cases");
    const clang::Expr *S = E->IgnoreParenImpCasts();
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
          V && !llvm::isa<clang::ParmVarDecl>(V) && V->hasLocalStorage() && V->getInit() &&
          B.isFixed(V) && !B.isLoopVar(V))
        return visit(V->getInit(), std::move(Conds));
    if (const auto *C = llvm::dyn_cast<clang::ConditionalOperator>(S)) {
      std::vector<Condition> Then = Conds, Else = std::move(Conds);
      Then.push_back(Condition::of(C->getCond(), false));
      Else.push_back(Condition::of(C->getCond(), true));
      if (llvm::Error Err = visit(C->getTrueExpr(), std::move(Then)))
        return Err;
      return visit(C->getFalseExpr(), std::move(Else));
    }
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S); Call && Call->getNumArgs() == 2)
      if (const clang::FunctionDecl *F = Call->getDirectCallee();
          F && F->getDeclName().isIdentifier() &&
          (F->getName() == "max" || F->getName() == "min")) {
        bool Max = F->getName() == "max";
        const clang::Expr *A = Call->getArg(0), *Bx = Call->getArg(1);
        std::vector<Condition> First = Conds, Second = std::move(Conds);
        First.push_back(Condition::compare(A, Max ? ">=" : "<=", Bx));
        Second.push_back(Condition::compare(A, Max ? "<" : ">", Bx));
        if (llvm::Error Err = visit(A, std::move(First)))
          return Err;
        return visit(Bx, std::move(Second));
      }
    llvm::Expected<IndexPoly> P = B.build(E);
    if (!P)
      return P.takeError();
    unsigned G = B.positionAtom(Dim);
    IndexPoly Rest;
    IndexPoly Coef = P->coefficientOf(G, &Rest);
    bool LoopOnly = !Rest.mentions([&](unsigned A) { return B.atom(A).Kind != AtomKind::LoopVar; });
    if (P->degreeIn(G) == 1 && Coef.asConstant() == 1 && LoopOnly)
      Leaves.push_back({Rest, std::move(Conds), false});
    else if (B.isUniform(*P))
      Leaves.push_back({IndexPoly(), std::move(Conds), true});
    else
      return B.error(E->getBeginLoc(), std::string("a coordinate that is neither a constant "
                                                   "offset of the thread's ") +
                                           Dim + " position nor a bound");
    return llvm::Error::success();
  }

  std::vector<DimLeaf> Leaves;

private:
  IndexPolyBuilder &B;
  char Dim;
};

// A read that follows the thread's position, before grouping.
struct Candidate {
  Access A;
  ReachPath Path;
  AccessForm Form;
  std::array<IndexPoly, 3> Delta; // From its group's base.
  int Group = -1;
};

IndexPoly withoutLoopVars(const IndexPoly &P, const IndexPolyBuilder &B) {
  IndexPoly Out = P;
  for (unsigned A = 0; A < B.atomCount(); ++A)
    if (B.atom(A).Kind == AtomKind::LoopVar)
      Out = Out.substitute(A, IndexPoly());
  return Out;
}

bool sameStrides(const std::array<IndexPoly, 3> &A, const std::array<IndexPoly, 3> &B) {
  return A[0] == B[0] && A[1] == B[1] && A[2] == B[2];
}

// An array the kernel writes must be read, if at all, only at the elements it
// writes: reads at other offsets are an update in place, whose result depends
// on the order of the threads.
} // namespace

llvm::Error checkInPlaceUpdates(const UnitAST &U, IndexPolyBuilder &B) {
  std::map<const clang::ParmVarDecl *, std::vector<Access>> Uses;
  std::vector<const clang::ParmVarDecl *> Order;
  for (Access &A : frontend::pointerParamAccesses(U.Kernel, U.Ctx)) {
    if (!Uses.count(A.Param))
      Order.push_back(A.Param);
    Uses[A.Param].push_back(std::move(A));
  }
  for (const clang::ParmVarDecl *P : Order) {
    const std::vector<Access> &All = Uses[P];
    if (llvm::none_of(All, [](const Access &A) { return A.Write; }))
      continue;
    std::vector<std::pair<const Access *, IndexPoly>> Writes, Reads;
    for (const Access &A : All) {
      if (!A.top())
        return unsupported(U, accessLoc(A),
                           "'" + P->getName() +
                               "' is written, and used here in a way kopt "
                               "does not follow");
      llvm::Expected<IndexPoly> Lin = frontend::linearIndex(A, B, U.Ctx);
      if (!Lin)
        return unsupported(U, accessLoc(A),
                           "'" + P->getName() +
                               "' is written, and kopt cannot tell which "
                               "element this reads or writes (" +
                               llvm::toString(Lin.takeError()) + ")");
      (A.Write ? Writes : Reads).emplace_back(&A, *Lin);
      if (A.Read && A.Write)
        Reads.emplace_back(&A, *Lin);
    }
    for (const auto &[R, RP] : Reads)
      for (const auto &[W, WP] : Writes)
        if (!(RP == WP))
          return unsupported(U, accessLoc(*R),
                             "'" + P->getName() +
                                 "' is read here at another element than it "
                                 "is written at line " +
                                 llvm::Twine(U.line(accessLoc(*W))) + ":" +
                                 llvm::Twine(U.column(accessLoc(*W))) +
                                 ": an update in place (Gauss-Seidel) depends on the order of "
                                 "the threads");
  }
  return llvm::Error::success();
}

namespace {

class Analysis {
public:
  Analysis(const UnitAST &Unit, IndexPolyBuilder &Builder) : U(Unit), B(Builder) {}

  llvm::Expected<StencilIdiom> run();

private:
  llvm::Error collectAccesses();
  llvm::Error groupReads(std::vector<Candidate> &Cands);
  llvm::Error addEntries(Candidate &C);
  std::optional<std::pair<int64_t, int64_t>> range(const IndexPoly &P) const;

  const UnitAST &U;
  IndexPolyBuilder &B;
  StencilIdiom S;
  std::map<const clang::ParmVarDecl *, std::vector<Access>> Uses;
  std::vector<const clang::ParmVarDecl *> Order; // Parameters in order of first use.
  std::string Irregular;                         // Why some read does not qualify.
  std::map<unsigned, std::string> IrregularIn;   // By group: why a read of its array did not.
};

std::optional<std::pair<int64_t, int64_t>> Analysis::range(const IndexPoly &P) const {
  return frontend::offsetRange(P, B, [&](unsigned A) -> std::optional<std::pair<int64_t, int64_t>> {
    auto It = S.Loops.find(llvm::dyn_cast<clang::VarDecl>(B.atom(A).Decl));
    if (It == S.Loops.end())
      return std::nullopt;
    return std::make_pair(It->second.Lo, It->second.Hi);
  });
}

llvm::Error Analysis::collectAccesses() {
  for (Access &A : frontend::pointerParamAccesses(U.Kernel, U.Ctx)) {
    if (!Uses.count(A.Param))
      Order.push_back(A.Param);
    Uses[A.Param].push_back(std::move(A));
  }
  return llvm::Error::success();
}

llvm::Error Analysis::groupReads(std::vector<Candidate> &Cands) {
  struct Group {
    const clang::ParmVarDecl *Array;
    std::array<IndexPoly, 3> Stride;
    IndexPoly Base;
  };
  std::vector<Group> Groups;
  for (Candidate &C : Cands) {
    bool Placed = false;
    for (size_t G = 0; G < Groups.size() && !Placed; ++G) {
      if (Groups[G].Array != C.A.Param || !sameStrides(Groups[G].Stride, C.Form.Stride))
        continue;
      std::optional<std::array<IndexPoly, 3>> D =
          frontend::splitOffsets(C.Form.Rest - Groups[G].Base, C.Form.Stride, S.Dims, B);
      if (!D)
        continue;
      bool Near = true;
      for (const IndexPoly &Part : *D) {
        std::optional<std::pair<int64_t, int64_t>> R = range(Part);
        Near &= R && R->first >= -MaxRadius && R->second <= MaxRadius;
      }
      if (Near) {
        C.Group = G;
        C.Delta = *D;
        Placed = true;
      }
    }
    if (Placed)
      continue;
    IndexPoly Base = withoutLoopVars(C.Form.Rest, B);
    std::optional<std::array<IndexPoly, 3>> D =
        frontend::splitOffsets(C.Form.Rest - Base, C.Form.Stride, S.Dims, B);
    if (!D)
      return unsupported(U, accessLoc(C.A),
                         "the offset of '" + C.A.Param->getName() +
                             "' depends on a loop variable in a way kopt cannot split by "
                             "dimension");
    C.Group = Groups.size();
    C.Delta = *D;
    Groups.push_back({C.A.Param, C.Form.Stride, Base});
  }
  for (const Group &G : Groups) {
    TileGroup T;
    T.Array = G.Array;
    T.Stride = G.Stride;
    T.Base = G.Base;
    S.Groups.push_back(std::move(T));
  }
  return llvm::Error::success();
}

// The entries of a read whose way there can be evaluated for another thread,
// and the read itself as one a tile serves.
llvm::Error Analysis::addEntries(Candidate &C) {
  // The ways each dimension resolves.
  std::array<std::vector<DimLeaf>, 3> PerDim;
  for (int D = 0; D < 3; ++D) {
    if (!(S.Dims & (1u << D)))
      continue;
    if (C.Form.Clamp[D] < 0) {
      PerDim[D].push_back({C.Delta[D], {}, false});
      continue;
    }
    ClampLeaves Clamp(B, char('x' + D));
    if (llvm::Error Err = Clamp.visit(B.atom(C.Form.Clamp[D]).Expr, {}))
      return Err;
    for (DimLeaf &L : Clamp.Leaves) {
      if (!L.Fixed)
        L.Delta = L.Delta + C.Delta[D];
      PerDim[D].push_back(std::move(L));
    }
  }
  std::vector<ReadLeaf> Leaves(1);
  for (int D = 0; D < 3; ++D) {
    if (PerDim[D].empty())
      continue;
    std::vector<ReadLeaf> Next;
    for (const ReadLeaf &L : Leaves)
      for (const DimLeaf &DL : PerDim[D]) {
        ReadLeaf N = L;
        N.Delta[D] = DL.Delta;
        N.Conds.insert(N.Conds.end(), DL.Conds.begin(), DL.Conds.end());
        N.Fixed |= DL.Fixed;
        Next.push_back(std::move(N));
      }
    Leaves = std::move(Next);
  }
  if (Leaves.size() > MaxLeaves)
    return unsupported(U, accessLoc(C.A), "a read with too many clamped cases");

  // Only a read whose conditions another thread can evaluate loads cells.
  bool Pure = C.Path.Exact;
  for (const Condition &Cond : C.Path.Conds)
    Pure &= isPure(*Cond.Expr, B);
  std::vector<std::pair<const clang::VarDecl *, LoopRange>> Loops;
  for (const clang::ForStmt *For : C.Path.Loops) {
    const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit());
    const auto *V = Decl && Decl->isSingleDecl()
                        ? llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl())
                        : nullptr;
    auto It = S.Loops.find(V);
    if (It == S.Loops.end()) {
      Pure = false;
      break;
    }
    Loops.emplace_back(V, It->second);
  }
  if (!Pure || llvm::all_of(Leaves, [](const ReadLeaf &L) { return L.Fixed; }))
    return llvm::Error::success(); // It keeps reading global memory.
  size_t Count = 1;
  for (const auto &[V, R] : Loops)
    Count *= size_t(R.Hi - R.Lo + 1);
  if (Count > MaxLoopValues)
    return unsupported(U, accessLoc(C.A),
                       "loops around the read run too many iterations to enumerate");
  TileGroup &G = S.Groups[C.Group];
  for (size_t I = 0; I < Count; ++I) {
    std::vector<std::pair<const clang::VarDecl *, int64_t>> Values;
    size_t Rest = I;
    for (const auto &[V, R] : Loops) {
      int64_t N = R.Hi - R.Lo + 1;
      Values.emplace_back(V, R.Lo + int64_t(Rest % N));
      Rest /= N;
    }
    for (const ReadLeaf &L : Leaves) {
      if (L.Fixed)
        continue;
      LoadEntry E;
      for (int D = 0; D < 3; ++D) {
        IndexPoly P = L.Delta[D];
        for (const auto &[V, Value] : Values)
          for (unsigned A = 0; A < B.atomCount(); ++A)
            if (B.atom(A).Kind == AtomKind::LoopVar && B.atom(A).Decl == V)
              P = P.substitute(A, IndexPoly::constant(Value));
        std::optional<int64_t> At = P.asConstant();
        if (!At)
          return unsupported(U, accessLoc(C.A), "an offset kopt cannot evaluate");
        E.At[D] = *At;
      }
      E.Conds = C.Path.Conds;
      E.Conds.insert(E.Conds.end(), L.Conds.begin(), L.Conds.end());
      E.LoopValues = Values;
      G.Entries.push_back(std::move(E));
    }
  }
  S.Reads.push_back({C.A.top(), unsigned(C.Group), std::move(Leaves)});
  G.Element = typeText(C.A.top()->getType(), U);
  G.ElementBytes = U.Ctx.getTypeSizeInChars(C.A.top()->getType()).getQuantity();
  G.Subscripted = C.A.Levels.size() > 1;
  return llvm::Error::success();
}

llvm::Expected<StencilIdiom> Analysis::run() {
  if (U.Kernel.isTemplated())
    return unsupported(U, U.Kernel.getLocation(), templateWithoutInstantiation());
  StmtContents Contents = inspectStmt(*U.Kernel.getBody());
  if (Contents.Barrier || Contents.Shared || Contents.WarpIntrinsic)
    return unsupported(U, U.Kernel.getLocation(),
                       "the kernel already synchronizes, uses shared memory or warp intrinsics");
  bool Goto = false;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *St) {
    Goto |= llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::LabelStmt>(St);
  });
  if (Goto)
    return unsupported(U, U.Kernel.getLocation(), "the kernel uses goto");
  S.Dims = B.threadDims();
  if ((S.Dims & 3) != 3)
    return unsupported(U, U.Kernel.getLocation(),
                       "not a 2-D or 3-D kernel (it does not read threadIdx.x and threadIdx.y)");
  findLiteralLoops(U, B, S); // Their variables may take part in positions' indices.
  if (llvm::Error Err = checkPositionForm(U, B))
    return Err;
  if (llvm::Error Err = collectAccesses())
    return Err;
  if (llvm::Error Err = checkInPlaceUpdates(U, B))
    return Err;

  std::vector<Candidate> Cands;
  std::map<const clang::ParmVarDecl *, std::string>
      Why; // A read of the array that does not qualify.
  for (const clang::ParmVarDecl *P : Order) {
    const std::vector<Access> &All = Uses[P];
    if (llvm::any_of(All, [](const Access &A) { return A.Write; }))
      continue;
    for (const Access &A : All) {
      ReachPath Path = reachPath(U, *A.top());
      auto Note = [&](const llvm::Twine &Reason) {
        if (!Why.count(P))
          Why[P] = (llvm::Twine("line ") + llvm::Twine(U.line(accessLoc(A))) + ":" +
                    llvm::Twine(U.column(accessLoc(A))) + ": the index of '" + P->getName() + "' " +
                    Reason)
                       .str();
      };
      if (const clang::VarDecl *V = openLoopVar(A.top(), Path, S)) {
        Note("depends on '" + V->getName() +
             "', the variable of a loop without literal bounds: not a constant offset");
        continue;
      }
      llvm::Expected<IndexPoly> Lin = frontend::linearIndex(A, B, U.Ctx);
      if (!Lin) {
        Note("is not a constant offset of the thread's position (" +
             llvm::toString(Lin.takeError()) + ")");
        continue;
      }
      Candidate C{A, Path, {}, {}, -1};
      AccessShape Shape = frontend::accessShape(*Lin, S.Dims, B, C.Form);
      if (Shape == AccessShape::Irregular)
        Note("is not a constant offset of the thread's position");
      if (Shape == AccessShape::Follows)
        Cands.push_back(std::move(C));
    }
  }
  if (llvm::Error Err = groupReads(Cands))
    return Err;
  for (Candidate &C : Cands)
    if (llvm::Error Err = addEntries(C))
      return Err;

  // A tile pays where its cells are read at two or more offsets.
  std::vector<int> NewIndex(S.Groups.size(), -1);
  std::vector<TileGroup> Kept;
  for (size_t G = 0; G < S.Groups.size(); ++G) {
    TileGroup &T = S.Groups[G];
    std::set<Offset> Distinct;
    for (const LoadEntry &E : T.Entries)
      Distinct.insert(E.At);
    if (Distinct.size() < 2)
      continue;
    if (Why.count(T.Array))
      return llvm::createStringError(Why[T.Array]);
    for (int D = 0; D < 3; ++D) {
      T.Lo[D] = T.Hi[D] = 0;
      for (const LoadEntry &E : T.Entries) {
        T.Lo[D] = std::min(T.Lo[D], E.At[D]);
        T.Hi[D] = std::max(T.Hi[D], E.At[D]);
      }
      if (T.Hi[D] - T.Lo[D] > 2 * MaxRadius)
        return unsupported(U, T.Array->getLocation(),
                           "'" + T.Array->getName() + "' is read over more than " +
                               llvm::Twine(2 * MaxRadius + 1) + " cells in " + dimName(D));
      if ((S.Dims & (1u << D)) && T.Stride[D].asConstant() == 1)
        T.Fast = char('x' + D);
    }
    NewIndex[G] = Kept.size();
    Kept.push_back(std::move(T));
  }
  if (Kept.empty()) {
    std::string Reason = "no input is read at two or more offsets of the thread's position";
    if (!Why.empty())
      return llvm::createStringError(Why.begin()->second);
    return unsupported(U, U.Kernel.getLocation(), Reason);
  }
  S.Groups = std::move(Kept);
  std::vector<TileRead> Reads;
  for (TileRead &R : S.Reads)
    if (NewIndex[R.Group] >= 0) {
      R.Group = NewIndex[R.Group];
      Reads.push_back(std::move(R));
    }
  S.Reads = std::move(Reads);
  if (llvm::Error Err = checkBoundedAccesses(U, B, S.Dims))
    return Err;
  return std::move(S);
}
} // namespace

llvm::Expected<StencilIdiom> findStencilIdiom(const UnitAST &U, IndexPolyBuilder &B) {
  return Analysis(U, B).run();
}

llvm::Error checkTilesDoNotAlias(const UnitAST &U, const StencilIdiom &S, bool NoAlias) {
  if (NoAlias)
    return llvm::Error::success();
  for (const Access &A : frontend::pointerParamAccesses(U.Kernel, U.Ctx)) {
    if (!A.Write)
      continue;
    for (const TileGroup &G : S.Groups)
      if (G.Array != A.Param &&
          (!G.Array->getType().isRestrictQualified() || !A.Param->getType().isRestrictQualified()))
        return unsupported(U, G.Array->getLocation(),
                           "'" + G.Array->getName() + "' may alias '" + A.Param->getName() +
                               "', which the kernel writes (no noalias clause, not "
                               "__restrict__): a tile would keep values the writes change");
  }
  return llvm::Error::success();
}

llvm::Error checkBoundedAccesses(const UnitAST &U, IndexPolyBuilder &B, unsigned Dims) {
  llvm::Error Result = llvm::Error::success();
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *St) {
    if (Result)
      return;
    const auto *E = llvm::dyn_cast<clang::Expr>(St);
    if (!E)
      return;
    if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      // The outermost subscript of a chain stands for the chain.
      const clang::Stmt *Up = parentOf(Sub, U.Ctx);
      while (Up && llvm::isa<clang::ImplicitCastExpr>(Up))
        Up = parentOf(Up, U.Ctx);
      if (const auto *Outer = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(Up);
          Outer && Outer->getBase()->IgnoreImpCasts() == Sub)
        return;
      // Local arrays are no global memory.
      const clang::Expr *Base = Sub->getBase()->IgnoreParenImpCasts();
      while (const auto *Inner = llvm::dyn_cast<clang::ArraySubscriptExpr>(Base))
        Base = Inner->getBase()->IgnoreParenImpCasts();
      if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Base))
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
            V && V->hasLocalStorage() && V->getType()->isArrayType())
          return;
    } else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(E);
               !Un || Un->getOpcode() != clang::UO_Deref) {
      return;
    }
    ReachPath Path = reachPath(U, *E);
    for (int D = 0; D < 3; ++D) {
      if (!(Dims & (1u << D)))
        continue;
      bool Bounded = llvm::any_of(
          Path.Conds, [&](const Condition &C) { return boundsAbove(C, char('x' + D), B); });
      if (!Bounded) {
        Result = unsupported(U, E->getBeginLoc(),
                             "this access runs without a bound on the thread's " + dimName(D) +
                                 " position: blocks of another shape would run it on threads "
                                 "the launch did not have");
        return;
      }
    }
  });
  return Result;
}

Fit fitsStencil(const frontend::KernelSummary &Kernel, bool Need3D) {
  if (Fit F = analysedAtInstantiation(Kernel); !F)
    return F;
  if (Fit F = dimensionsBetween(Kernel, Need3D ? 3 : 2, 3); !F)
    return F;
  if (Fit F = independentThreads(Kernel); !F)
    return F;
  if (llvm::none_of(Kernel.Features.Neighbourhoods,
                    [](const frontend::Neighbourhood &N) { return N.Offsets >= 2; }))
    return Fit::no("no input is read at two or more offsets of the thread's position");
  return Fit::yes();
}

} // namespace kopt::transform
