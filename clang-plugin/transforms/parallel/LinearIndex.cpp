#include "clang-plugin/transforms/parallel/LinearIndex.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <algorithm>

namespace kopt::transform {

Linear Linear::constant(int64_t C) {
  Linear L;
  if (C)
    L.Terms[{}] = C;
  return L;
}

Linear Linear::variable(const clang::VarDecl *V) {
  Linear L;
  L.Terms[{V}] = 1;
  return L;
}

Linear Linear::operator+(const Linear &O) const {
  Linear Out = *this;
  for (const auto &[M, C] : O.Terms)
    if ((Out.Terms[M] += C) == 0)
      Out.Terms.erase(M);
  return Out;
}

Linear Linear::operator-(const Linear &O) const { return *this + O * constant(-1); }

Linear Linear::operator*(const Linear &O) const {
  Linear Out;
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end(), WrittenBefore());
      if ((Out.Terms[M] += CA * CB) == 0)
        Out.Terms.erase(M);
    }
  return Out;
}

bool Linear::isConstant() const { return Terms.empty() || (Terms.size() == 1 && Terms.count({})); }

int64_t Linear::constantTerm() const {
  auto It = Terms.find({});
  return It == Terms.end() ? 0 : It->second;
}

int64_t Linear::coefficientOf(const clang::VarDecl *V) const {
  auto It = Terms.find({V});
  return It == Terms.end() ? 0 : It->second;
}

bool Linear::mentions(const clang::VarDecl *V) const {
  for (const auto &[M, C] : Terms)
    if (std::find(M.begin(), M.end(), V) != M.end())
      return true;
  return false;
}

Linear Linear::without(const clang::VarDecl *V) const {
  Linear Out;
  for (const auto &[M, C] : Terms)
    if (std::find(M.begin(), M.end(), V) == M.end())
      Out.Terms[M] = C;
  return Out;
}

const clang::VarDecl *Linear::singleVariable() const {
  const clang::VarDecl *Var = nullptr;
  for (const auto &[M, C] : Terms) {
    if (M.empty())
      continue;
    if (M.size() != 1 || Var)
      return nullptr;
    Var = M.front();
  }
  return Var;
}

std::optional<Linear>
linearize(const clang::Expr *E, const clang::ASTContext &Ctx,
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
    return linearize(Cast->getSubExpr(), Ctx, ValueOf);
  }
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!V)
      return std::nullopt;
    if (const clang::Expr *Value = ValueOf ? ValueOf(V) : nullptr)
      if (std::optional<Linear> L = linearize(Value, Ctx, ValueOf))
        return L;
    return Linear::variable(V);
  }
  if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    std::optional<Linear> Sub = linearize(Un->getSubExpr(), Ctx, ValueOf);
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
  std::optional<Linear> L = linearize(Bin->getLHS(), Ctx, ValueOf),
                        R = linearize(Bin->getRHS(), Ctx, ValueOf);
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

bool Ranges::nonNegative(const Linear &L, unsigned Depth) const {
  if (L.isConstant())
    return L.constantTerm() >= 0;
  if (Depth > 6)
    return false;
  // c x + rest >= c Lo + rest for c > 0, and >= c (Hi - 1) + rest for c < 0:
  // replace one variable by a bound and try again.
  for (const auto &[M, C] : L.Terms) {
    if (M.size() != 1)
      continue;
    const clang::VarDecl *X = M.front();
    bool Linear1 = true;
    for (const auto &[M2, C2] : L.Terms)
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
      if (!Edge.mentions(X) && nonNegative(Edge * Linear::constant(C) + Rest, Depth + 1))
        return true;
    }
  }
  return false;
}

} // namespace kopt::transform
