#include "clang-plugin/analysis/IndexAnalysis.h"

#include "clang-plugin/analysis/ast/SourceText.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include <algorithm>

namespace kopt::frontend {

namespace {
constexpr unsigned MaxVariableHops = 8;

const clang::Expr *strip(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParenCasts();
    if (const auto *PO = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
      E = PO->getSyntacticForm();
    else
      return E;
  }
}

// The initializer of a local variable (not a parameter) that E names.
const clang::Expr *localInit(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
  if (!Ref)
    return nullptr;
  const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
  if (!V || llvm::isa<clang::ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit())
    return nullptr;
  return V->getInit();
}

bool anySubExprAt(const clang::Expr *E, llvm::function_ref<bool(const clang::Expr *)> Pred,
                  unsigned Hops) {
  if (!E)
    return false;
  if (Pred(E))
    return true;
  if (const auto *PO = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
    return anySubExprAt(PO->getSyntacticForm(), Pred, Hops);
  if (const clang::Expr *Init = localInit(E))
    return Hops < MaxVariableHops && anySubExprAt(Init, Pred, Hops + 1);
  for (const clang::Stmt *Child : E->children())
    if (const auto *C = llvm::dyn_cast_or_null<clang::Expr>(Child))
      if (anySubExprAt(C, Pred, Hops))
        return true;
  return false;
}

// The coefficient of threadIdx.x in an expression: a number or a text.
struct Coefficient {
  bool Affine = true;
  bool Symbolic = false;
  int64_t Value = 0;
  std::string Text;

  bool isZero() const { return Affine && !Symbolic && Value == 0; }
  std::string text() const { return Symbolic ? Text : std::to_string(Value); }
};

Coefficient notAffine() {
  Coefficient C;
  C.Affine = false;
  return C;
}

Coefficient symbolic(std::string Text) {
  Coefficient C;
  C.Symbolic = true;
  C.Text = std::move(Text);
  return C;
}

std::string exprText(const clang::Expr *E, const clang::ASTContext &Ctx) {
  std::string Text = sourceText(E->getSourceRange(), Ctx);
  if (Text.empty()) {
    llvm::raw_string_ostream OS(Text);
    E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  }
  return Text;
}

std::optional<int64_t> constantValue(const clang::Expr *E, const clang::ASTContext &Ctx) {
  if (E->isValueDependent() || E->isTypeDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  clang::Expr::EvalResult Result;
  if (!E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

Coefficient add(const Coefficient &A, const Coefficient &B, bool Subtract) {
  if (!A.Affine || !B.Affine)
    return notAffine();
  if (B.isZero())
    return A;
  if (!A.Symbolic && !B.Symbolic) {
    Coefficient C;
    C.Value = Subtract ? A.Value - B.Value : A.Value + B.Value;
    return C;
  }
  if (A.isZero())
    return Subtract ? symbolic("-(" + B.text() + ")") : B;
  return symbolic(A.text() + (Subtract ? " - (" + B.text() + ")" : " + " + B.text()));
}

// C times a constant.
Coefficient scale(const Coefficient &C, int64_t Factor) {
  if (!C.Affine || C.isZero())
    return C;
  if (!C.Symbolic) {
    Coefficient Out;
    Out.Value = C.Value * Factor;
    return Out;
  }
  return symbolic("(" + C.Text + ") * " + std::to_string(Factor));
}

// C times Factor, an expression independent of threadIdx.x.
Coefficient scale(const Coefficient &C, const clang::Expr *Factor, const clang::ASTContext &Ctx) {
  if (!C.Affine || C.isZero())
    return C;
  if (std::optional<int64_t> N = constantValue(Factor, Ctx))
    return scale(C, *N);
  std::string Text = exprText(Factor, Ctx);
  if (!C.Symbolic && C.Value == 1)
    return symbolic(Text);
  return symbolic(C.text() + " * " + Text);
}

Coefficient coefficient(const clang::Expr *E, const clang::ASTContext &Ctx, unsigned Hops) {
  E = strip(E);
  if (!dependsOnThreadX(E))
    return {};
  if (asIndexBuiltin(E)) {
    Coefficient One;
    One.Value = 1;
    return One; // threadIdx.x itself: the only builtin that depends on it.
  }
  if (const clang::Expr *Init = localInit(E))
    return Hops < MaxVariableHops ? coefficient(Init, Ctx, Hops + 1) : notAffine();
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    if (U->getOpcode() == clang::UO_Plus)
      return coefficient(U->getSubExpr(), Ctx, Hops);
    if (U->getOpcode() == clang::UO_Minus)
      return add(Coefficient(), coefficient(U->getSubExpr(), Ctx, Hops), /*Subtract=*/true);
    return notAffine();
  }
  const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E);
  if (!Bin)
    return notAffine();
  const clang::Expr *L = Bin->getLHS(), *R = Bin->getRHS();
  switch (Bin->getOpcode()) {
  case clang::BO_Add:
  case clang::BO_Sub:
    return add(coefficient(L, Ctx, Hops), coefficient(R, Ctx, Hops),
               Bin->getOpcode() == clang::BO_Sub);
  case clang::BO_Mul:
    if (dependsOnThreadX(L) && dependsOnThreadX(R))
      return notAffine();
    return dependsOnThreadX(L) ? scale(coefficient(L, Ctx, Hops), R, Ctx)
                               : scale(coefficient(R, Ctx, Hops), L, Ctx);
  case clang::BO_Shl: {
    std::optional<int64_t> Shift = constantValue(R, Ctx);
    if (dependsOnThreadX(R) || !Shift || *Shift < 0 || *Shift > 32)
      return notAffine();
    Coefficient C = coefficient(L, Ctx, Hops);
    if (!C.Affine || C.isZero())
      return C;
    if (!C.Symbolic) {
      C.Value <<= *Shift;
      return C;
    }
    return symbolic("(" + C.Text + ") * " + std::to_string(int64_t(1) << *Shift));
  }
  default:
    return notAffine();
  }
}

bool isLoad(const clang::Expr *E) {
  if (llvm::isa<clang::ArraySubscriptExpr>(E))
    return true;
  const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
  return U && U->getOpcode() == clang::UO_Deref;
}
} // namespace

std::optional<IndexBuiltin> asIndexBuiltin(const clang::Expr *E) {
  E = strip(E);
  const clang::Expr *Base = nullptr;
  std::string Member;
  if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(E)) {
    Base = M->getBase();
    Member = M->getMemberNameInfo().getAsString();
  } else if (const auto *P = llvm::dyn_cast<clang::MSPropertyRefExpr>(E)) {
    Base = P->getBaseExpr();
    Member = P->getPropertyDecl()->getNameAsString();
  } else {
    return std::nullopt;
  }
  Base = Base->IgnoreParenImpCasts();
  if (const auto *Opaque = llvm::dyn_cast<clang::OpaqueValueExpr>(Base)) // In a PseudoObjectExpr.
    Base = Opaque->getSourceExpr() ? Opaque->getSourceExpr()->IgnoreParenImpCasts() : Base;
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Base);
  if (!Ref || !Ref->getDecl()->getIdentifier() || Member.size() != 1 || Member[0] < 'x' ||
      Member[0] > 'z')
    return std::nullopt;
  llvm::StringRef Name = Ref->getDecl()->getName();
  if (Name != "threadIdx" && Name != "blockIdx" && Name != "blockDim" && Name != "gridDim")
    return std::nullopt;
  return IndexBuiltin{Name, Member[0]};
}

bool anySubExpr(const clang::Expr *E, llvm::function_ref<bool(const clang::Expr *)> Pred) {
  return anySubExprAt(E, Pred, 0);
}

bool dependsOnThreadX(const clang::Expr *E) {
  return anySubExpr(E, [](const clang::Expr *S) {
    std::optional<IndexBuiltin> B = asIndexBuiltin(S);
    return B && B->Var == "threadIdx" && B->Component == 'x';
  });
}

bool dependsOnThreadIndex(const clang::Expr *E) {
  return anySubExpr(E, [](const clang::Expr *S) {
    std::optional<IndexBuiltin> B = asIndexBuiltin(S);
    return B && (B->Var == "threadIdx" || B->Var == "blockIdx");
  });
}

std::vector<const clang::ParmVarDecl *> referencedParams(const clang::Expr *E) {
  std::vector<const clang::ParmVarDecl *> Params;
  anySubExpr(E, [&Params](const clang::Expr *S) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
      if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(Ref->getDecl()))
        if (std::find(Params.begin(), Params.end(), P) == Params.end())
          Params.push_back(P);
    return false;
  });
  return Params;
}

std::optional<PointerBase> resolvePointerParam(const clang::Expr *E) {
  for (unsigned Hops = 0; Hops <= MaxVariableHops; ++Hops) {
    E = strip(E);
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
      if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(Ref->getDecl()))
        if (P->getType()->isPointerType())
          return PointerBase{P, {}};
      const clang::Expr *Init = localInit(E);
      if (!Init || !Ref->getType()->isPointerType())
        return std::nullopt;
      E = Init;
      continue;
    }
    if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E)) {
      if (Bin->getOpcode() != clang::BO_Add)
        return std::nullopt;
      bool LeftIsPointer = Bin->getLHS()->getType()->isPointerType();
      std::optional<PointerBase> Base =
          resolvePointerParam(LeftIsPointer ? Bin->getLHS() : Bin->getRHS());
      if (Base)
        Base->Offsets.push_back({LeftIsPointer ? Bin->getRHS() : Bin->getLHS()});
      return Base;
    }
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
      const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(strip(U->getSubExpr()));
      if (U->getOpcode() != clang::UO_AddrOf || !Sub)
        return std::nullopt;
      std::optional<PointerBase> Base = resolvePointerParam(Sub->getBase());
      if (Base)
        Base->Offsets.push_back({Sub->getIdx()});
      return Base;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

IndexClass classifyIndex(llvm::ArrayRef<IndexTerm> Terms, const clang::ASTContext &Ctx) {
  for (const IndexTerm &T : Terms)
    if (anySubExpr(T.Expr, isLoad))
      return {AccessPattern::Indirect, ""};
  Coefficient C;
  for (const IndexTerm &T : Terms) {
    Coefficient Term = coefficient(T.Expr, Ctx, 0);
    C = add(C, T.Scale == 1 ? Term : scale(Term, T.Scale), /*Subtract=*/false);
  }
  if (!C.Affine)
    return {AccessPattern::Other, ""};
  if (C.isZero())
    return {AccessPattern::Broadcast, ""};
  if (!C.Symbolic && C.Value == 1)
    return {AccessPattern::Coalesced, ""};
  return {AccessPattern::Strided, C.text()};
}

} // namespace kopt::frontend
