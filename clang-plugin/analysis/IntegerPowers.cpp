#include "clang-plugin/analysis/IntegerPowers.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

namespace kopt::frontend {

std::optional<unsigned> smallIntegerPower(const clang::CallExpr &Call) {
  const clang::FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getDeclName().isIdentifier() || Call.getNumArgs() != 2 ||
      !Call.getType()->isRealFloatingType())
    return std::nullopt;
  if (F->getName() != "pow" && F->getName() != "powf")
    return std::nullopt;
  const clang::Expr *Exponent = Call.getArg(1)->IgnoreParenImpCasts();
  std::optional<double> Value;
  if (const auto *I = llvm::dyn_cast<clang::IntegerLiteral>(Exponent))
    Value = static_cast<double>(I->getValue().getZExtValue());
  else if (const auto *FL = llvm::dyn_cast<clang::FloatingLiteral>(Exponent))
    Value = FL->getValueAsApproximateDouble();
  if (!Value)
    return std::nullopt;
  for (unsigned N = 2; N <= MaxExpandedPower; ++N)
    if (*Value == static_cast<double>(N))
      return N;
  return std::nullopt;
}

} // namespace kopt::frontend
