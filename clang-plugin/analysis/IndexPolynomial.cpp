#include "clang-plugin/analysis/IndexPolynomial.h"

#include "clang-plugin/analysis/IndexAnalysis.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace kopt::frontend {

namespace {
constexpr unsigned MaxDepth = 64;

unsigned dimBit(char Dim) { return 1u << (Dim - 'x'); }

// Integer types of at least 32 bits: casts between them keep every value an
// index takes in a kernel that does not overflow.
bool wideInteger(clang::QualType T, const clang::ASTContext &Ctx) {
  return T->isIntegerType() && !T->isBooleanType() && Ctx.getTypeSize(T) >= 32;
}

bool isMinMaxAbs(llvm::StringRef Name) {
  static const char *const Names[] = {"min",    "max",    "umin", "umax", "llmin", "llmax",
                                      "ullmin", "ullmax", "abs",  "labs", "llabs"};
  return llvm::is_contained(Names, Name);
}

class WrittenVisitor : public clang::RecursiveASTVisitor<WrittenVisitor> {
public:
  explicit WrittenVisitor(clang::ASTContext &C) : Ctx(C) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!V)
      return true;
    // (v) is read where the parentheses are.
    clang::DynTypedNodeList Parents = Ctx.getParents(*Ref);
    while (!Parents.empty() && Parents[0].get<clang::ParenExpr>())
      Parents = Ctx.getParents(Parents[0]);
    const auto *Cast = Parents.empty() ? nullptr : Parents[0].get<clang::ImplicitCastExpr>();
    if (!Cast || Cast->getCastKind() != clang::CK_LValueToRValue)
      Written.insert(V);
    return true;
  }
  std::set<const clang::VarDecl *> Written;

private:
  clang::ASTContext &Ctx;
};

// Whether V is declared in a for loop's init statement.
bool isForVariable(const clang::VarDecl *V, clang::ASTContext &Ctx) {
  clang::DynTypedNodeList Decls = Ctx.getParents(*V);
  const auto *Decl = Decls.empty() ? nullptr : Decls[0].get<clang::DeclStmt>();
  if (!Decl)
    return false;
  clang::DynTypedNodeList Loops = Ctx.getParents(*Decl);
  const auto *For = Loops.empty() ? nullptr : Loops[0].get<clang::ForStmt>();
  return For && For->getInit() == Decl;
}
} // namespace

unsigned threadDimsRead(const clang::FunctionDecl &Kernel) {
  unsigned Dims = 0;
  std::vector<const clang::Stmt *> Work = {Kernel.getBody()};
  while (!Work.empty()) {
    const clang::Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *E = llvm::dyn_cast<clang::Expr>(S))
      if (std::optional<IndexBuiltin> B = asIndexBuiltin(E)) {
        if (B->Var == "threadIdx")
          Dims |= dimBit(B->Component);
        continue;
      }
    for (const clang::Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Dims;
}

IndexPolyBuilder::IndexPolyBuilder(clang::ASTContext &C, const clang::FunctionDecl &K)
    : Ctx(C), Kernel(K), ThreadDims(threadDimsRead(K)) {
  WrittenVisitor Visitor(Ctx);
  Visitor.TraverseStmt(Kernel.getBody());
  Written = std::move(Visitor.Written);
}

llvm::Error IndexPolyBuilder::error(clang::SourceLocation Loc, const llvm::Twine &Why) const {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  unsigned Line = P.isValid() ? P.getLine() : 0, Column = P.isValid() ? P.getColumn() : 0;
  return llvm::createStringError(
      (llvm::Twine("line ") + llvm::Twine(Line) + ":" + llvm::Twine(Column) + ": " + Why).str());
}

unsigned IndexPolyBuilder::intern(PolyAtom A, const llvm::FoldingSetNodeID &Key) {
  llvm::FoldingSetNodeID Full = Key;
  Full.AddInteger(unsigned(A.Kind));
  for (const auto &[Known, Id] : AtomIds)
    if (Known == Full)
      return Id;
  AtomIds.emplace_back(Full, Atoms.size());
  Atoms.push_back(A);
  return Atoms.size() - 1;
}

unsigned IndexPolyBuilder::positionAtom(char Dim) {
  llvm::FoldingSetNodeID Key;
  Key.AddInteger(Dim);
  PolyAtom A;
  A.Kind = AtomKind::Position;
  A.Dim = Dim;
  return intern(A, Key);
}

void IndexPolyBuilder::addLoopVar(const clang::VarDecl *V) { LoopVars.insert(V); }

bool IndexPolyBuilder::isUniform(const IndexPoly &P) const {
  return !P.mentions([&](unsigned A) {
    const PolyAtom &Atom = Atoms[A];
    return Atom.Kind == AtomKind::Position || Atom.Kind == AtomKind::LoopVar ||
           Atom.Kind == AtomKind::BlockDim ||
           (Atom.Kind == AtomKind::Opaque && (Atom.PositionDims || Atom.ReadsLoopVar));
  });
}

unsigned IndexPolyBuilder::positionDims(const IndexPoly &P) const {
  unsigned Dims = 0;
  P.mentions([&](unsigned A) {
    const PolyAtom &Atom = Atoms[A];
    if (Atom.Kind == AtomKind::Position)
      Dims |= dimBit(Atom.Dim);
    else if (Atom.Kind == AtomKind::Opaque)
      Dims |= Atom.PositionDims;
    return false;
  });
  return Dims;
}

bool IndexPolyBuilder::readsLoopVar(const IndexPoly &P) const {
  return P.mentions([&](unsigned A) {
    return Atoms[A].Kind == AtomKind::LoopVar ||
           (Atoms[A].Kind == AtomKind::Opaque && Atoms[A].ReadsLoopVar);
  });
}

llvm::Error IndexPolyBuilder::checkPositions(const IndexPoly &P, const clang::Expr *E) const {
  if (P.overflowed())
    return error(E->getBeginLoc(), "an index constant overflows 64 bits");
  std::string Why;
  P.mentions([&](unsigned A) {
    const PolyAtom &Atom = Atoms[A];
    if (Atom.Kind == AtomKind::BlockDim)
      Why = std::string("reads blockDim.") + Atom.Dim +
            " other than in blockIdx * blockDim + threadIdx";
    else if (Atom.Kind == AtomKind::BlockIdx && (ThreadDims & dimBit(Atom.Dim)))
      Why = std::string("reads threadIdx.") + Atom.Dim + " or blockIdx." + Atom.Dim +
            " on its own, not only in blockIdx * blockDim + threadIdx";
    return !Why.empty();
  });
  if (!Why.empty())
    return error(E->getBeginLoc(), Why);
  return llvm::Error::success();
}

llvm::Expected<IndexPoly> IndexPolyBuilder::build(const clang::Expr *E) {
  llvm::Expected<IndexPoly> P = visit(E, 0);
  if (!P)
    return P.takeError();
  if (llvm::Error Err = checkPositions(*P, E))
    return Err;
  return P;
}

llvm::Expected<IndexPoly> IndexPolyBuilder::geometry(const clang::Expr *E) {
  std::optional<IndexBuiltin> B = asIndexBuiltin(E);
  char Dim = B->Component;
  auto Raw = [&](AtomKind Kind) {
    llvm::FoldingSetNodeID Key;
    Key.AddInteger(Dim);
    PolyAtom A;
    A.Kind = Kind;
    A.Dim = Dim;
    return IndexPoly::atom(intern(A, Key));
  };
  if (B->Var == "gridDim")
    return error(E->getBeginLoc(), std::string("reads gridDim.") + Dim);
  if (B->Var == "blockIdx")
    return Raw(AtomKind::BlockIdx);
  if (B->Var == "blockDim")
    return Raw(AtomKind::BlockDim);
  // threadIdx.c = g_c - blockIdx.c * blockDim.c: g_c is then what a sum of
  // the three leaves, and a leftover blockIdx or blockDim is an error.
  return IndexPoly::atom(positionAtom(Dim)) - Raw(AtomKind::BlockIdx) * Raw(AtomKind::BlockDim);
}

llvm::Expected<IndexPoly> IndexPolyBuilder::opaque(const clang::Expr *E, unsigned Depth) {
  PolyAtom A;
  A.Kind = AtomKind::Opaque;
  A.Expr = E;
  for (const clang::Stmt *Child : E->children()) {
    const auto *C = llvm::dyn_cast_or_null<clang::Expr>(Child);
    if (!C)
      continue;
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E); Call && C == Call->getCallee())
      continue;
    llvm::Expected<IndexPoly> P = visit(C, Depth + 1);
    if (!P)
      return P.takeError();
    if (llvm::Error Err = checkPositions(*P, C))
      return Err;
    A.PositionDims |= positionDims(*P);
    A.ReadsLoopVar |= readsLoopVar(*P);
  }
  llvm::FoldingSetNodeID Key;
  E->Profile(Key, Ctx, /*Canonical=*/true);
  return IndexPoly::atom(intern(A, Key));
}

llvm::Expected<IndexPoly> IndexPolyBuilder::visit(const clang::Expr *E, unsigned Depth) {
  if (Depth > MaxDepth)
    return error(E->getBeginLoc(), "the index is nested too deeply");
  E = E->IgnoreParens();
  if (auto It = Cache.find(E); It != Cache.end())
    return It->second;
  if (asIndexBuiltin(E))
    return geometry(E);
  auto Done = [&](IndexPoly P) -> llvm::Expected<IndexPoly> {
    Cache.try_emplace(E, P);
    return P;
  };
  if (E->getType()->isIntegerType() && !E->isValueDependent())
    if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx))
      if (V->getSignificantBits() <= 64)
        return Done(IndexPoly::constant(V->getExtValue()));
  if (!E->getType()->isIntegerType())
    return error(E->getBeginLoc(), "not an integer expression");

  if (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(E)) {
    const clang::Expr *Sub = Cast->getSubExpr();
    switch (Cast->getCastKind()) {
    case clang::CK_LValueToRValue:
    case clang::CK_NoOp:
      return visit(Sub, Depth + 1);
    case clang::CK_IntegralCast:
      if (Sub->getType()->isBooleanType())
        return opaque(E, Depth);
      if (wideInteger(E->getType(), Ctx) && wideInteger(Sub->getType(), Ctx))
        return visit(Sub, Depth + 1);
      return error(E->getBeginLoc(), "a cast to or from an integer narrower than 32 bits");
    default:
      return opaque(E, Depth);
    }
  }
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (V && LoopVars.count(V)) {
      llvm::FoldingSetNodeID Key;
      Key.AddPointer(V);
      PolyAtom A;
      A.Kind = AtomKind::LoopVar;
      A.Decl = V;
      return IndexPoly::atom(intern(A, Key));
    }
    if (V && !isFixed(V))
      return error(
          Ref->getLocation(),
          "'" + V->getName() + "' is assigned after its declaration" +
              (isForVariable(V, Ctx) ? " (a loop without literal bounds: not a constant)" : ""));
    if (const auto *Param = llvm::dyn_cast_or_null<clang::ParmVarDecl>(V)) {
      llvm::FoldingSetNodeID Key;
      Key.AddPointer(Param);
      PolyAtom A;
      A.Kind = AtomKind::Param;
      A.Decl = Param;
      return Done(IndexPoly::atom(intern(A, Key)));
    }
    if (V && V->hasLocalStorage() && V->getInit() && !V->getType()->isReferenceType() &&
        V->getInitStyle() == clang::VarDecl::CInit) {
      if (!wideInteger(V->getType(), Ctx))
        return error(Ref->getLocation(), "'" + V->getName() + "' is narrower than 32 bits");
      llvm::Expected<IndexPoly> P = visit(V->getInit(), Depth + 1);
      if (!P)
        return P.takeError();
      return Done(*P);
    }
    return error(Ref->getLocation(), "reads '" + Ref->getNameInfo().getAsString() +
                                         "', which is not a parameter or a local set once");
  }
  if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    clang::BinaryOperatorKind Op = Bin->getOpcode();
    if (Op == clang::BO_Add || Op == clang::BO_Sub || Op == clang::BO_Mul) {
      llvm::Expected<IndexPoly> L = visit(Bin->getLHS(), Depth + 1);
      if (!L)
        return L.takeError();
      llvm::Expected<IndexPoly> R = visit(Bin->getRHS(), Depth + 1);
      if (!R)
        return R.takeError();
      return Done(Op == clang::BO_Add ? *L + *R : Op == clang::BO_Sub ? *L - *R : *L * *R);
    }
    if (Op == clang::BO_Shl)
      if (std::optional<llvm::APSInt> S = Bin->getRHS()->getIntegerConstantExpr(Ctx);
          S && S->getExtValue() >= 0 && S->getExtValue() < 62) {
        llvm::Expected<IndexPoly> L = visit(Bin->getLHS(), Depth + 1);
        if (!L)
          return L.takeError();
        return Done(L->scaled(int64_t(1) << S->getExtValue()));
      }
    if (Bin->isAssignmentOp() || Op == clang::BO_Comma)
      return error(E->getBeginLoc(), "an assignment inside an index");
    return opaque(E, Depth);
  }
  if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    switch (Un->getOpcode()) {
    case clang::UO_Minus: {
      llvm::Expected<IndexPoly> P = visit(Un->getSubExpr(), Depth + 1);
      if (!P)
        return P.takeError();
      return Done(P->scaled(-1));
    }
    case clang::UO_Plus:
      return visit(Un->getSubExpr(), Depth + 1);
    case clang::UO_LNot:
    case clang::UO_Not:
      return opaque(E, Depth);
    default:
      return error(E->getBeginLoc(), "reads memory or changes a variable inside an index");
    }
  }
  if (llvm::isa<clang::ConditionalOperator>(E))
    return opaque(E, Depth);
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E)) {
    const clang::FunctionDecl *F = Call->getDirectCallee();
    if (F && F->getDeclName().isIdentifier() && isMinMaxAbs(F->getName()))
      return opaque(E, Depth);
    return error(E->getBeginLoc(), "calls a function inside an index");
  }
  if (llvm::isa<clang::ArraySubscriptExpr>(E))
    return error(E->getBeginLoc(), "the index reads memory (a data-dependent index)");
  return error(E->getBeginLoc(), "kopt cannot analyze this index expression");
}

} // namespace kopt::frontend
