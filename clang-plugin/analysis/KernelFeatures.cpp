#include "clang-plugin/model/KernelFeatures.h"

#include "clang-plugin/analysis/CarriedStores.h"
#include "clang-plugin/analysis/CollectiveCalls.h"
#include "clang-plugin/analysis/FlagStores.h"
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/IntegerPowers.h"
#include "clang-plugin/analysis/LocalArrays.h"
#include "clang-plugin/analysis/Neighbourhoods.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/analysis/ast/SourceText.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSet.h>

#include <map>
#include <set>
#include <tuple>

namespace kopt::frontend {

namespace {
// CUDA's math API (float and double forms) and its fast intrinsics.
const llvm::StringSet<> &mathFunctions() {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
    for (const char *Base :
         {"exp",   "exp2",          "exp10",        "expm1",     "log",    "log2",
          "log10", "log1p",         "pow",          "sqrt",      "rsqrt",  "cbrt",
          "rcbrt", "sin",           "cos",          "tan",       "sincos", "sinpi",
          "cospi", "sincospi",      "asin",         "acos",      "atan",   "atan2",
          "sinh",  "cosh",          "tanh",         "asinh",     "acosh",  "atanh",
          "erf",   "erfc",          "erfinv",       "erfcinv",   "lgamma", "tgamma",
          "fma",   "fabs",          "fmin",         "fmax",      "floor",  "ceil",
          "round", "trunc",         "rint",         "nearbyint", "fmod",   "remainder",
          "hypot", "rhypot",        "norm3d",       "rnorm3d",   "norm4d", "rnorm4d",
          "ldexp", "frexp",         "modf",         "copysign",  "fdim",   "logb",
          "ilogb", "normcdf",       "normcdfinv",   "j0",        "j1",     "y0",
          "y1",    "cyl_bessel_i0", "cyl_bessel_i1"}) {
      S.insert(Base);
      S.insert(std::string(Base) + "f");
    }
    for (const char *Intrinsic :
         {"__expf",    "__exp10f",   "__logf",      "__log2f",   "__log10f",   "__powf",
          "__sinf",    "__cosf",     "__tanf",      "__sincosf", "__fdividef", "__saturatef",
          "__frcp_rn", "__fsqrt_rn", "__frsqrt_rn", "__fdiv_rn", "__fmaf_rn",  "__fmaf_rz",
          "__fmaf_ru", "__fmaf_rd",  "__fma_rn",    "__fadd_rn", "__fmul_rn",  "__dadd_rn",
          "__dmul_rn", "__drcp_rn",  "__dsqrt_rn",  "__ddiv_rn", "__tanhf",    "__exp2f",
          "hexp",      "hlog",       "hsqrt",       "hrsqrt",    "h2exp",      "h2log",
          "h2sqrt",    "h2rsqrt",    "__hfma",      "__hfma2"})
      S.insert(Intrinsic);
    return S;
  }();
  return Names;
}

bool isWarpIntrinsic(llvm::StringRef Name) {
  for (llvm::StringRef Prefix :
       {"__shfl", "__ballot", "__any", "__all", "__reduce", "__activemask", "__match"})
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

bool isBarrier(llvm::StringRef Name) {
  return Name.starts_with("__syncthreads") || Name == "__syncwarp" || Name == "__barrier_sync";
}

const char *comparisonText(clang::BinaryOperatorKind Op, bool Reversed) {
  switch (Op) {
  case clang::BO_LT:
    return Reversed ? ">" : "<";
  case clang::BO_LE:
    return Reversed ? ">=" : "<=";
  case clang::BO_GT:
    return Reversed ? "<" : ">";
  case clang::BO_GE:
    return Reversed ? "<=" : ">=";
  case clang::BO_NE:
    return "!=";
  case clang::BO_EQ:
    return "==";
  default:
    return nullptr;
  }
}

const clang::VarDecl *namedVar(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
}

// How many scalars a value of type T holds: 1, or the product of a constant
// array's extents; none for an array without a constant size.
std::optional<int64_t> scalarsIn(clang::QualType T, const clang::ASTContext &Ctx) {
  int64_t N = 1;
  while (T->isArrayType()) {
    const clang::ConstantArrayType *A = Ctx.getAsConstantArrayType(T);
    if (!A)
      return std::nullopt;
    N *= int64_t(A->getSize().getZExtValue());
    T = A->getElementType();
  }
  return N;
}

enum AccessUse : unsigned { UseRead = 1, UseWrite = 2, UseAddress = 4 };

class FeatureVisitor : public clang::RecursiveASTVisitor<FeatureVisitor> {
public:
  FeatureVisitor(clang::ASTContext &Context, KernelFeatures &Sink) : Ctx(Context), F(Sink) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return true; }

  // Loops: record them, then keep the stack while their bodies are visited.
  bool TraverseForStmt(clang::ForStmt *S) {
    return traverseLoop(S, LoopFeature::Kind::For, [&] { return Super::TraverseForStmt(S); });
  }
  bool TraverseWhileStmt(clang::WhileStmt *S) {
    return traverseLoop(S, LoopFeature::Kind::While, [&] { return Super::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(clang::DoStmt *S) {
    return traverseLoop(S, LoopFeature::Kind::Do, [&] { return Super::TraverseDoStmt(S); });
  }

  bool VisitAttributedStmt(clang::AttributedStmt *S) {
    for (const clang::Attr *A : S->getAttrs())
      if (const auto *Hint = llvm::dyn_cast<clang::LoopHintAttr>(A))
        if (Hint->getOption() == clang::LoopHintAttr::Unroll ||
            Hint->getOption() == clang::LoopHintAttr::UnrollCount) {
          std::string Count;
          if (const clang::Expr *Value = Hint->getValue())
            Count = sourceText(Value->getSourceRange(), Ctx);
          Unrolled[S->getSubStmt()] = Count;
        }
    return true;
  }

  bool VisitMemberExpr(clang::MemberExpr *E) { return noteBuiltin(E); }
  bool VisitMSPropertyRefExpr(clang::MSPropertyRefExpr *E) { return noteBuiltin(E); }

  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (E->getOpcode() == clang::BO_Div &&
        E->getType()->isSpecificBuiltinType(clang::BuiltinType::Float))
      ++F.FloatDivisions;
    if (E->isAssignmentOp())
      Uses[E->getLHS()->IgnoreParens()] |= UseWrite | (E->isCompoundAssignmentOp() ? UseRead : 0u);
    // A pointer into a parameter stored in a variable: later accesses through
    // it are not followed (only a local's initializer is).
    if (E->getOpcode() == clang::BO_Assign && E->getRHS()->getType()->isPointerType())
      if (std::optional<PointerBase> Base = resolvePointerParam(E->getRHS())) {
        const clang::VarDecl *Target = namedVar(E->getLHS());
        addEscape(*Base, E, "assigned to '" + (Target ? Target->getNameAsString() : "memory") + "'",
                  false);
      }
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator *E) {
    const clang::Expr *Sub = E->getSubExpr()->IgnoreParens();
    if (E->isIncrementDecrementOp())
      Uses[Sub] |= UseRead | UseWrite;
    else if (E->getOpcode() == clang::UO_AddrOf)
      Uses[Sub] |= UseAddress;
    else if (E->getOpcode() == clang::UO_Deref)
      if (std::optional<PointerBase> Base = resolvePointerParam(E->getSubExpr()))
        addAccess(E, *Base);
    return true;
  }

  // A[i][k] on a parameter float A[N][M] is one access at i * M + k, recorded
  // at the outer subscript (the one read or written); the inner A[i] is a row.
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    if (E->getType()->isArrayType())
      return true;
    std::vector<IndexTerm> Levels;
    const clang::ArraySubscriptExpr *Level = E;
    for (;;) {
      std::optional<int64_t> Elements = scalarsIn(Level->getType(), Ctx);
      if (!Elements)
        return true;
      Levels.push_back({Level->getIdx(), *Elements});
      const auto *Row =
          llvm::dyn_cast<clang::ArraySubscriptExpr>(Level->getBase()->IgnoreParenImpCasts());
      if (!Row || !Row->getType()->isArrayType())
        break;
      Level = Row;
    }
    if (std::optional<PointerBase> Base = resolvePointerParam(Level->getBase())) {
      Base->Offsets.insert(Base->Offsets.end(), Levels.rbegin(), Levels.rend());
      addAccess(E, *Base);
    }
    return true;
  }

  bool VisitIfStmt(clang::IfStmt *S) {
    const clang::Stmt *Then = S->getThen();
    if (const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(Then);
        Block && Block->size() == 1)
      Then = Block->body_front();
    bool Exit = llvm::isa_and_nonnull<clang::ReturnStmt>(Then) && !S->getElse();
    if (const clang::Expr *Cond = S->getCond())
      addGuards(Cond, Exit);
    return true;
  }

  bool VisitVarDecl(clang::VarDecl *V) {
    if (!V->hasAttr<clang::CUDASharedAttr>())
      return true;
    SharedVariable S;
    S.Name = V->getNameAsString();
    // "union (unnamed union)", without the file:line:col clang adds by default:
    // the features do not depend on the path the file was named by.
    clang::PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.AnonymousTagLocations = false;
    S.Type = V->getType().getAsString(Policy);
    clang::QualType T = V->getType();
    S.Dynamic = T->isIncompleteArrayType();
    if (!S.Dynamic && !V->isInvalidDecl() && !T->isDependentType() && !T->isIncompleteType() &&
        T->isConstantSizeType())
      S.Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
    F.SharedVariables.push_back(std::move(S));
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *Call) {
    std::string Name = transform::calleeName(*Call);
    noteEscapingArguments(*Call, Name);
    if (std::optional<CollectiveCall> Collective = collectiveCall(*Call))
      (Collective->IsBarrier ? F.Barriers : F.WarpIntrinsics)
          .push_back(callFeature(Collective->Name, Call));
    else if (Name.empty() || llvm::StringRef(Name).starts_with("__fetch_builtin_"))
      return true; // threadIdx.x and the like read through a property: IndexBuiltins has them.
    else if (llvm::StringRef(Name).starts_with("atomic")) {
      F.Atomics.push_back(callFeature(Name, Call));
      // The address an atomic updates is read and written.
      if (Call->getNumArgs() > 0)
        if (const auto *U =
                llvm::dyn_cast<clang::UnaryOperator>(Call->getArg(0)->IgnoreParenImpCasts()))
          if (U->getOpcode() == clang::UO_AddrOf)
            Uses[U->getSubExpr()->IgnoreParens()] |= UseRead | UseWrite;
    } else if (isBarrier(Name))
      F.Barriers.push_back(callFeature(Name, Call));
    else if (isWarpIntrinsic(Name))
      F.WarpIntrinsics.push_back(callFeature(Name, Call));
    else if (mathFunctions().contains(Name)) {
      F.MathCalls.push_back(callFeature(Name, Call));
      F.IntegerPowers += smallIntegerPower(*Call).has_value();
      F.OtherPowers += isOtherPower(*Call);
    } else
      F.OtherCalls.push_back(callFeature(Name, Call));
    return true;
  }

  void finish() {
    F.IndexBuiltins.assign(Builtins.begin(), Builtins.end());
    findRepeatedAccesses();
    findRowParams();
  }

private:
  using Super = clang::RecursiveASTVisitor<FeatureVisitor>;

  template <typename Body>
  bool traverseLoop(clang::Stmt *S, LoopFeature::Kind Kind, Body TraverseChildren) {
    LoopFeature L;
    L.LoopKind = Kind;
    L.Depth = static_cast<unsigned>(LoopStack.size());
    lineAndColumn(S->getBeginLoc(), Ctx, L.Line, L.Column);
    if (auto It = Unrolled.find(S); It != Unrolled.end()) {
      L.Unroll = true;
      L.UnrollCount = It->second;
    }
    const clang::VarDecl *IV = nullptr;
    if (auto *For = llvm::dyn_cast<clang::ForStmt>(S)) {
      IV = describeFor(*For, L);
      noteBoundParams(For->getInit(), L);
      noteBoundParams(For->getCond(), L);
    } else if (auto *While = llvm::dyn_cast<clang::WhileStmt>(S)) {
      noteBoundParams(While->getCond(), L);
    } else if (auto *Do = llvm::dyn_cast<clang::DoStmt>(S)) {
      noteBoundParams(Do->getCond(), L);
    }
    const clang::VarDecl *RowVar = findOffsetsBounds(S, L);
    int Index = static_cast<int>(F.Loops.size());
    F.Loops.push_back(std::move(L));
    InductionVars.push_back(IV);
    OffsetsVars.push_back(RowVar);
    ParentLoop.push_back(LoopStack.empty() ? -1 : LoopStack.back());
    LoopStack.push_back(Index);
    bool Continue = TraverseChildren();
    LoopStack.pop_back();
    return Continue;
  }

  // The pointer parameters whose elements S reads (through locals too).
  void noteBoundParams(const clang::Stmt *S, LoopFeature &L) {
    const clang::Expr *E = llvm::dyn_cast_or_null<clang::Expr>(S);
    if (const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(S); Decl && Decl->isSingleDecl())
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl()))
        E = V->getInit();
    if (!E)
      return;
    anySubExpr(E, [&](const clang::Expr *Sub) {
      const clang::Expr *Pointer = nullptr;
      if (const auto *A = llvm::dyn_cast<clang::ArraySubscriptExpr>(Sub))
        Pointer = A->getBase();
      else if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Sub);
               U && U->getOpcode() == clang::UO_Deref)
        Pointer = U->getSubExpr();
      if (Pointer)
        if (std::optional<PointerBase> Base = resolvePointerParam(Pointer)) {
          std::string Name = Base->Param->getNameAsString();
          if (!llvm::is_contained(L.BoundParams, Name))
            L.BoundParams.push_back(Name);
        }
      return false;
    });
  }

  // A CSR row's bounds: a for or while loop whose condition compares a local
  // J below P[I + 1] (J < E, E > J, J != E) and whose J starts at P[I], the same
  // integer pointer parameter P and index I; E and the start may be locals
  // initialized from those elements. Sets L.OffsetsParam; returns J.
  const clang::VarDecl *findOffsetsBounds(const clang::Stmt *Loop, LoopFeature &L) {
    const clang::Expr *Cond = nullptr;
    const clang::Stmt *Init = nullptr;
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(Loop)) {
      Cond = For->getCond();
      Init = For->getInit();
    } else if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(Loop)) {
      Cond = While->getCond();
    }
    const auto *Cmp =
        llvm::dyn_cast_or_null<clang::BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts() : nullptr);
    if (!Cmp)
      return nullptr;
    const clang::Expr *Var = nullptr, *End = nullptr;
    if (Cmp->getOpcode() == clang::BO_LT || Cmp->getOpcode() == clang::BO_NE)
      std::tie(Var, End) = std::pair(Cmp->getLHS(), Cmp->getRHS());
    else if (Cmp->getOpcode() == clang::BO_GT)
      std::tie(Var, End) = std::pair(Cmp->getRHS(), Cmp->getLHS());
    const clang::VarDecl *J = Var ? namedVar(Var) : nullptr;
    if (!J || llvm::isa<clang::ParmVarDecl>(J))
      return nullptr;
    const clang::Expr *Start = J->getInit();
    if (const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(Init)) {
      if (!llvm::is_contained(Decl->decls(), J))
        return nullptr;
    } else if (const auto *Assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(Init)) {
      if (Assign->getOpcode() != clang::BO_Assign || namedVar(Assign->getLHS()) != J)
        return nullptr;
      Start = Assign->getRHS();
    } else if (Init) {
      return nullptr;
    }
    std::optional<OffsetsElement> First = offsetsElement(Start), Last = offsetsElement(End);
    if (!First || !Last || First->Param != Last->Param || !isPlusOne(Last->Index, First->Index))
      return nullptr;
    L.OffsetsParam = First->Param->getNameAsString();
    return J;
  }

  // P[I] for an integer pointer parameter P, or a local initialized from one.
  struct OffsetsElement {
    const clang::ParmVarDecl *Param = nullptr;
    const clang::Expr *Index = nullptr;
  };
  std::optional<OffsetsElement> offsetsElement(const clang::Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 4)
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
    if (const clang::VarDecl *V = namedVar(E))
      return llvm::isa<clang::ParmVarDecl>(V) ? std::nullopt
                                              : offsetsElement(V->getInit(), Depth + 1);
    const auto *Subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(E);
    if (!Subscript || !Subscript->getType()->isIntegerType())
      return std::nullopt;
    std::optional<PointerBase> Base = resolvePointerParam(Subscript->getBase());
    if (!Base || !Base->Offsets.empty())
      return std::nullopt;
    return OffsetsElement{Base->Param, Subscript->getIdx()->IgnoreParenImpCasts()};
  }

  // Next is First + 1 (or 1 + First), First as written there.
  bool isPlusOne(const clang::Expr *Next, const clang::Expr *First) const {
    const auto *Sum = llvm::dyn_cast<clang::BinaryOperator>(Next->IgnoreParenImpCasts());
    if (!Sum || Sum->getOpcode() != clang::BO_Add)
      return false;
    for (auto [One, Other] :
         {std::pair(Sum->getRHS(), Sum->getLHS()), std::pair(Sum->getLHS(), Sum->getRHS())}) {
      std::optional<llvm::APSInt> Value = One->getIntegerConstantExpr(Ctx);
      if (Value && *Value == 1 && transform::sameExpr(*Other, *First, Ctx))
        return true;
    }
    return false;
  }

  // Induction variable, init, comparison, bound and step of a for loop.
  const clang::VarDecl *describeFor(const clang::ForStmt &For, LoopFeature &L) {
    const clang::VarDecl *IV = nullptr;
    if (const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(For.getInit())) {
      if (Decl->isSingleDecl())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl());
            V && V->getInit()) {
          IV = V;
          L.Init = sourceText(V->getInit()->getSourceRange(), Ctx);
        }
    } else if (const auto *Assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(For.getInit())) {
      if (Assign->getOpcode() == clang::BO_Assign && (IV = namedVar(Assign->getLHS())))
        L.Init = sourceText(Assign->getRHS()->getSourceRange(), Ctx);
    }
    if (const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
            For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr)) {
      const clang::VarDecl *Left = namedVar(Cond->getLHS()), *Right = namedVar(Cond->getRHS());
      bool Reversed = !(Left && (!IV || Left == IV)) && Right && (!IV || Right == IV);
      const clang::VarDecl *CondVar = Reversed ? Right : Left;
      const char *Op = comparisonText(Cond->getOpcode(), Reversed);
      if (Op && CondVar && (!IV || CondVar == IV)) {
        IV = CondVar;
        // Not operator=(const char *): a GCC 12 -Wrestrict false positive.
        L.Comparison = std::string(Op);
        L.Bound = sourceText((Reversed ? Cond->getLHS() : Cond->getRHS())->getSourceRange(), Ctx);
      }
    }
    if (const clang::Expr *Inc = For.getInc()) {
      L.Increment = sourceText(Inc->getSourceRange(), Ctx);
      L.Step = additiveStep(Inc->IgnoreParenImpCasts(), IV);
    }
    if (IV)
      L.InductionVar = IV->getNameAsString();
    L.Canonical = IV && !L.Comparison.empty() && !L.Step.empty();
    return IV;
  }

  std::string additiveStep(const clang::Expr *Inc, const clang::VarDecl *IV) {
    if (!IV)
      return "";
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Inc)) {
      if (namedVar(U->getSubExpr()) != IV)
        return "";
      return U->isIncrementOp() ? "1" : U->isDecrementOp() ? "-1" : "";
    }
    const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(Inc);
    if (!Bin || namedVar(Bin->getLHS()) != IV)
      return "";
    std::string RHS = sourceText(Bin->getRHS()->getSourceRange(), Ctx);
    if (Bin->getOpcode() == clang::BO_AddAssign)
      return RHS;
    if (Bin->getOpcode() == clang::BO_SubAssign)
      return "-(" + RHS + ")";
    // i = i + step.
    const auto *Sum = llvm::dyn_cast<clang::BinaryOperator>(Bin->getRHS()->IgnoreParenImpCasts());
    if (Bin->getOpcode() == clang::BO_Assign && Sum && Sum->getOpcode() == clang::BO_Add &&
        namedVar(Sum->getLHS()) == IV)
      return sourceText(Sum->getRHS()->getSourceRange(), Ctx);
    return "";
  }

  bool noteBuiltin(const clang::Expr *E) {
    if (std::optional<IndexBuiltin> B = asIndexBuiltin(E)) {
      Builtins.insert((B->Var + "." + llvm::StringRef(&B->Component, 1)).str());
      unsigned Dim = static_cast<unsigned>(B->Component - 'x') + 1;
      if (B->Var != "gridDim" && Dim > F.Dimensions)
        F.Dimensions = Dim;
    }
    return true;
  }

  void addAccess(const clang::Expr *E, const PointerBase &Base) {
    MemoryAccess A;
    A.Param = Base.Param->getNameAsString();
    std::vector<std::string> Terms;
    for (const IndexTerm &Offset : Base.Offsets) {
      std::string Text = sourceText(Offset.Expr->getSourceRange(), Ctx);
      if (Offset.Scale != 1) {
        const clang::Expr *Bare = Offset.Expr->IgnoreImpCasts();
        if (!llvm::isa<clang::DeclRefExpr, clang::IntegerLiteral, clang::ParenExpr>(Bare))
          Text = "(" + Text + ")";
        Text += " * " + std::to_string(Offset.Scale);
      }
      Terms.push_back(std::move(Text));
    }
    A.Index = Terms.empty() ? std::string(1, '0') : llvm::join(Terms, " + ");
    IndexClass Class = classifyIndex(Base.Offsets, Ctx);
    A.Pattern = Class.Pattern;
    A.Stride = Class.Stride;
    unsigned Use = 0;
    if (auto It = Uses.find(E); It != Uses.end())
      Use = It->second;
    A.Write = Use & UseWrite;
    A.Read = (Use & UseRead) || !(Use & (UseWrite | UseAddress));
    lineAndColumn(E->getBeginLoc(), Ctx, A.Line, A.Column);
    A.Loop = LoopStack.empty() ? -1 : LoopStack.back();
    AccessTerms.push_back(Base.Offsets);
    F.Accesses.push_back(std::move(A));
  }

  // Exit: the thread leaves where Cond holds (if (Cond) return;).
  void addGuards(const clang::Expr *Cond, bool Exit) {
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond)) {
      if (U->getOpcode() == clang::UO_LNot)
        addGuards(U->getSubExpr(), !Exit);
      return;
    }
    const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(Cond);
    if (!Bin)
      return;
    if (Bin->isLogicalOp()) {
      addGuards(Bin->getLHS(), Exit);
      addGuards(Bin->getRHS(), Exit);
      return;
    }
    if (!Bin->isComparisonOp())
      return;
    const clang::Expr *L = Bin->getLHS(), *R = Bin->getRHS();
    std::vector<const clang::ParmVarDecl *> Params;
    // The bound: parameters, or a constant (a macro size: j < (M + 1)).
    const clang::Expr *Bound = nullptr;
    if (dependsOnThreadIndex(L) && !dependsOnThreadIndex(R))
      Bound = R;
    else if (dependsOnThreadIndex(R) && !dependsOnThreadIndex(L))
      Bound = L;
    if (!Bound)
      return;
    Params = referencedParams(Bound);
    if (Params.empty() && !upperConstantBound(*Bin, Bound, Exit))
      return;
    BoundsGuard G;
    G.Condition = sourceText(Bin->getSourceRange(), Ctx);
    for (const clang::ParmVarDecl *P : Params)
      G.Params.push_back(P->getNameAsString());
    lineAndColumn(Bin->getBeginLoc(), Ctx, G.Line, G.Column);
    F.Guards.push_back(std::move(G));
  }

  // Pointer arguments into parameters: an atomic's first writes its address;
  // any other call may do anything with them.
  void noteEscapingArguments(const clang::CallExpr &Call, llvm::StringRef Name) {
    for (unsigned I = 0; I < Call.getNumArgs(); ++I) {
      const clang::Expr *Arg = Call.getArg(I);
      if (!Arg->getType()->isPointerType())
        continue;
      std::optional<PointerBase> Base = resolvePointerParam(Arg);
      if (!Base || intoPointerToConst(Call, I))
        continue;
      bool Atomic = Name.starts_with("atomic") && I == 0;
      addEscape(*Base, Arg, "passed to '" + (Name.empty() ? "a function" : Name.str()) + "'",
                Atomic);
    }
  }

  // Argument I goes into a parameter declared pointer to const (const float *w):
  // the callee reads through it and cannot write without a cast.
  static bool intoPointerToConst(const clang::CallExpr &Call, unsigned I) {
    const clang::FunctionDecl *Callee = Call.getDirectCallee();
    if (!Callee || llvm::isa<clang::CXXOperatorCallExpr>(Call) || I >= Callee->getNumParams())
      return false;
    clang::QualType T = Callee->getParamDecl(I)->getType();
    return T->isPointerType() && T->getPointeeType().isConstQualified();
  }

  void addEscape(const PointerBase &Base, const clang::Expr *E, std::string How, bool Writes) {
    PointerEscape Esc;
    Esc.Param = Base.Param->getNameAsString();
    Esc.How = std::move(How);
    Esc.Writes = Writes;
    lineAndColumn(E->getBeginLoc(), Ctx, Esc.Line, Esc.Column);
    F.Escapes.push_back(std::move(Esc));
  }

  // A comparison with a constant (a macro size) counts where it keeps the
  // thread below it (j < (M + 1), or j >= M in an early return), not where it
  // keeps it off a border (x < 1).
  bool upperConstantBound(const clang::BinaryOperator &Bin, const clang::Expr *Bound,
                          bool Exit) const {
    if (!Bound->isIntegerConstantExpr(Ctx))
      return false;
    clang::BinaryOperatorKind Op = Bin.getOpcode();
    if (Bound == Bin.getLHS()) // The thread on the right: as if it were on the left.
      Op = clang::BinaryOperator::reverseComparisonOp(Op);
    // tid == 0 (one thread works) bounds the threads as tid < 1 does.
    bool Below = Op == clang::BO_LT || Op == clang::BO_LE || Op == clang::BO_EQ;
    bool Above = Op == clang::BO_GT || Op == clang::BO_GE || Op == clang::BO_NE;
    return Exit ? Above : Below;
  }

  CallFeature callFeature(std::string Name, const clang::CallExpr *Call) {
    CallFeature C;
    C.Name = std::move(Name);
    lineAndColumn(Call->getBeginLoc(), Ctx, C.Line, C.Column);
    return C;
  }

  // For each access in a loop, the innermost enclosing loop with an induction
  // variable that its index does not use: the same address every iteration.
  void findRepeatedAccesses() {
    std::map<std::tuple<int, std::string, std::string>, size_t> Groups;
    for (size_t I = 0; I < F.Accesses.size(); ++I) {
      const MemoryAccess &A = F.Accesses[I];
      for (int Loop = A.Loop; Loop >= 0; Loop = ParentLoop[Loop]) {
        const clang::VarDecl *IV = InductionVars[Loop];
        if (!IV)
          continue;
        bool UsesIV = false;
        for (const IndexTerm &T : AccessTerms[I])
          UsesIV = UsesIV || transform::mentionsThroughLocals(T.Expr, IV);
        if (UsesIV)
          continue;
        auto [It, New] = Groups.try_emplace({Loop, A.Param, A.Index}, F.RepeatedAccesses.size());
        if (New) {
          RepeatedAccess R;
          R.Param = A.Param;
          R.Index = A.Index;
          R.Loop = Loop;
          F.RepeatedAccesses.push_back(std::move(R));
        }
        RepeatedAccess &R = F.RepeatedAccesses[It->second];
        R.Read = R.Read || A.Read;
        R.Write = R.Write || A.Write;
        ++R.Count;
        break;
      }
    }
  }

  // For each loop over a CSR row, the buffers an access in it (or in a loop
  // inside it) indexes with the row's variable.
  void findRowParams() {
    for (size_t I = 0; I < F.Accesses.size(); ++I)
      for (int Loop = F.Accesses[I].Loop; Loop >= 0; Loop = ParentLoop[Loop]) {
        const clang::VarDecl *J = OffsetsVars[Loop];
        LoopFeature &L = F.Loops[Loop];
        if (!J || F.Accesses[I].Param == L.OffsetsParam ||
            llvm::is_contained(L.RowParams, F.Accesses[I].Param))
          continue;
        if (llvm::any_of(AccessTerms[I],
                         [&](const IndexTerm &T) { return indexedByRow(T.Expr, J); }))
          L.RowParams.push_back(F.Accesses[I].Param);
      }
  }

  // Whether E names J itself outside any load: val[j], not x[col[j]] (indexed
  // by col's values) nor x[c] for a local c = col[j].
  static bool indexedByRow(const clang::Expr *E, const clang::VarDecl *J) {
    const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
    if (llvm::isa<clang::ArraySubscriptExpr>(E) || (U && U->getOpcode() == clang::UO_Deref))
      return false;
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
      return Ref->getDecl() == J;
    return llvm::any_of(E->children(), [&](const clang::Stmt *Child) {
      const auto *C = llvm::dyn_cast_or_null<clang::Expr>(Child);
      return C && indexedByRow(C, J);
    });
  }

  clang::ASTContext &Ctx;
  KernelFeatures &F;
  std::set<std::string> Builtins;
  llvm::DenseMap<const clang::Stmt *, std::string> Unrolled;
  llvm::DenseMap<const clang::Expr *, unsigned> Uses;
  std::vector<int> LoopStack;
  std::vector<int> ParentLoop;                       // Per loop.
  std::vector<const clang::VarDecl *> InductionVars; // Per loop; null where unknown.
  std::vector<const clang::VarDecl *> OffsetsVars;   // Per loop: a CSR row's variable, or null.
  std::vector<std::vector<IndexTerm>> AccessTerms;   // Per access.
};
} // namespace

const char *accessPatternName(AccessPattern P) {
  switch (P) {
  case AccessPattern::Coalesced:
    return "coalesced";
  case AccessPattern::Strided:
    return "strided";
  case AccessPattern::Broadcast:
    return "broadcast";
  case AccessPattern::Indirect:
    return "indirect";
  case AccessPattern::Other:
    return "other";
  }
  return "other";
}

KernelFeatures analyzeKernelFeatures(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx) {
  KernelFeatures F;
  if (!Kernel.hasBody())
    return F;
  FeatureVisitor Visitor(Ctx, F);
  Visitor.TraverseStmt(Kernel.getBody());
  Visitor.finish();
  F.Neighbourhoods = findNeighbourhoods(Kernel, Ctx);
  F.LocalArrays = summarizeLocalArrays(Kernel, Ctx);
  F.CarriedStores = static_cast<unsigned>(findCarriedStores(Kernel, Ctx).size());
  F.FlagStores = static_cast<unsigned>(findFlagStores(Kernel, Ctx).size());
  return F;
}

} // namespace kopt::frontend
