#include "clang-plugin/analysis/IntegerPowers.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

namespace kopt::frontend {

namespace {
// pow, powf or std::pow with two arguments and a floating result.
bool isPowCall(const clang::CallExpr &Call) {
  const clang::FunctionDecl *F = Call.getDirectCallee();
  return F && F->getDeclName().isIdentifier() && Call.getNumArgs() == 2 &&
         Call.getType()->isRealFloatingType() && (F->getName() == "pow" || F->getName() == "powf");
}

clang::QualType writtenType(const clang::Expr *E) {
  return E->IgnoreImpCasts()->getType().getCanonicalType().getUnqualifiedType();
}
} // namespace

std::optional<unsigned> smallIntegerPower(const clang::CallExpr &Call) {
  if (!isPowCall(Call))
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

bool isOtherPower(const clang::CallExpr &Call) {
  return isPowCall(Call) && !smallIntegerPower(Call);
}

std::string powComputedType(const clang::CallExpr &Call) {
  const clang::FunctionDecl *F = Call.getDirectCallee();
  clang::QualType Base = writtenType(Call.getArg(0)), Exponent = writtenType(Call.getArg(1));
  auto Is = [](clang::QualType T, clang::BuiltinType::Kind K) {
    return T->isSpecificBuiltinType(K);
  };
  if (F->getName() == "powf" ||
      (Is(Base, clang::BuiltinType::Float) && Is(Exponent, clang::BuiltinType::Float)))
    return "float";
  if (Is(Base, clang::BuiltinType::LongDouble) || Is(Exponent, clang::BuiltinType::LongDouble))
    return "long double";
  return "double";
}

std::string powArgumentType(const clang::Expr &Arg) { return writtenType(&Arg).getAsString(); }

} // namespace kopt::frontend
