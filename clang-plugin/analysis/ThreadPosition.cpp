#include "clang-plugin/analysis/ThreadPosition.h"

#include "clang-plugin/analysis/IndexAnalysis.h"

#include <clang/AST/Expr.h>

#include <utility>

namespace kopt::frontend {

bool isBuiltin(const clang::Expr *E, llvm::StringRef Var, char Dim) {
  std::optional<IndexBuiltin> B = asIndexBuiltin(E);
  return B && B->Var == Var && B->Component == Dim;
}

std::optional<std::array<const clang::Expr *, 2>> geometryProduct(const clang::BinaryOperator &Mul,
                                                                  llvm::StringRef First,
                                                                  llvm::StringRef Second, char Dim,
                                                                  BuiltinTest Is) {
  if (Mul.getOpcode() != clang::BO_Mul)
    return std::nullopt;
  const clang::Expr *L = Mul.getLHS(), *R = Mul.getRHS();
  if (Is(R, First, Dim))
    std::swap(L, R);
  if (!Is(L, First, Dim) || !Is(R, Second, Dim))
    return std::nullopt;
  return std::array<const clang::Expr *, 2>{L, R};
}

std::optional<PositionParts> positionSum(const clang::BinaryOperator &Add, BuiltinTest Is) {
  if (Add.getOpcode() != clang::BO_Add)
    return std::nullopt;
  for (char Dim : {'x', 'y', 'z'})
    for (int Swap = 0; Swap < 2; ++Swap) {
      const clang::Expr *T = Swap ? Add.getRHS() : Add.getLHS();
      const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(
          (Swap ? Add.getLHS() : Add.getRHS())->IgnoreParenImpCasts());
      if (!Is(T, "threadIdx", Dim) || !Mul)
        continue;
      if (std::optional<std::array<const clang::Expr *, 2>> Product =
              geometryProduct(*Mul, "blockIdx", "blockDim", Dim, Is))
        return PositionParts{Dim, {T, (*Product)[0], (*Product)[1]}};
    }
  return std::nullopt;
}

} // namespace kopt::frontend
