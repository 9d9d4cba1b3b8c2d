#include "clang-plugin/transforms/parallel/LinearIndex.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <algorithm>

namespace kopt::transform {

namespace {
std::optional<Linear>
linearizeParts(const clang::Expr *E, const clang::ASTContext &Ctx,
               llvm::function_ref<const clang::Expr *(const clang::VarDecl *)> ValueOf) {
  E = E->IgnoreParens();
  if (!E->getType()->isIntegerType())
    return std::nullopt;
  if (!E->isValueDependent())
    if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx))
      return Linear::constant(C->getExtValue());
  if (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(E)) {
    if (!Cast->getSubExpr()->getType()->isIntegerType())
      return std::nullopt;
    return linearizeParts(Cast->getSubExpr(), Ctx, ValueOf);
  }
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!V)
      return std::nullopt;
    if (const clang::Expr *Value = ValueOf ? ValueOf(V) : nullptr)
      if (std::optional<Linear> L = linearizeParts(Value, Ctx, ValueOf))
        return L;
    return Linear::atom(V);
  }
  if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    std::optional<Linear> Sub = linearizeParts(Un->getSubExpr(), Ctx, ValueOf);
    if (!Sub)
      return std::nullopt;
    if (Un->getOpcode() == clang::UO_Minus)
      return *Sub * Linear::constant(-1);
    if (Un->getOpcode() == clang::UO_Plus)
      return Sub;
    return std::nullopt;
  }
  const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E);
  if (!Bin)
    return std::nullopt;
  std::optional<Linear> L = linearizeParts(Bin->getLHS(), Ctx, ValueOf),
                        R = linearizeParts(Bin->getRHS(), Ctx, ValueOf);
  if (!L || !R)
    return std::nullopt;
  switch (Bin->getOpcode()) {
  case clang::BO_Add:
    return *L + *R;
  case clang::BO_Sub:
    return *L - *R;
  case clang::BO_Mul:
    return *L * *R;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<Linear>
linearize(const clang::Expr *E, const clang::ASTContext &Ctx,
          llvm::function_ref<const clang::Expr *(const clang::VarDecl *)> ValueOf) {
  // A coefficient that wrapped would prove things of a number the code never computes.
  std::optional<Linear> L = linearizeParts(E, Ctx, ValueOf);
  if (L && L->overflowed())
    return std::nullopt;
  return L;
}

bool Ranges::nonNegative(const Linear &L, unsigned Depth) const {
  if (L.overflowed())
    return false;
  if (std::optional<int64_t> C = L.asConstant())
    return *C >= 0;
  if (Depth > 6)
    return false;
  // c x + rest >= c Lo + rest for c > 0, and >= c (Hi - 1) + rest for c < 0:
  // replace one variable by a bound and try again.
  for (const auto &[M, C] : L.terms()) {
    if (M.size() != 1)
      continue;
    const clang::VarDecl *X = M.front();
    bool Linear1 = true;
    for (const auto &[M2, C2] : L.terms())
      Linear1 &= M2.size() <= 1 || std::find(M2.begin(), M2.end(), X) == M2.end();
    if (!Linear1)
      continue;
    const auto &Known = C > 0 ? Lower : Upper;
    auto It = Known.find(X);
    if (It == Known.end())
      continue;
    Linear Rest = L.without(X);
    for (const Linear &B : It->second) {
      Linear Edge = C > 0 ? B : B - Linear::constant(1);
      if (!Edge.mentions(X) && nonNegative(Edge.scaled(C) + Rest, Depth + 1))
        return true;
    }
  }
  return false;
}

} // namespace kopt::transform
