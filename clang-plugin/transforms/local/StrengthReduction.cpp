// strength-reduction: pow(x, n) with a literal integer n from 2 to 16 becomes
// squarings and products (analysis/IntegerPowers.h says why nvcc leaves it alone).
//   pow(dx, 2.0)  -> (dx * dx)
//   powf(r, 3.0f) -> (r * r * r)
//   pow(s, 6)     -> ((s * s * s) * (s * s * s))   the repeated product is
//                    computed once by the compiler: 3 multiplications
//   pow(f, 2)     -> ((double)(f) * (double)(f))   where the call computes in
//                    another type than its argument's (a float through pow(double, int))
// Each multiplication is correctly rounded, so the product is within n - 1
// rounding errors where CUDA's pow is within 2 ulp (4 for powf): results may
// differ in the last bits, within the pragma's tol. The argument is written
// n times, so only one without side effects is expanded; a call inside
// another's argument is expanded, the outer one is not.
#include "clang-plugin/analysis/IntegerPowers.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/FormatVariadic.h>

namespace kopt::transform {

namespace {
constexpr llvm::StringLiteral NoPower =
    "the kernel calls no pow with a literal integer exponent from 2 to 16";

// Operands that need no parentheses when repeated around '*'.
bool isPrimary(const clang::Expr *E) {
  E = E->IgnoreImpCasts();
  return llvm::isa<clang::DeclRefExpr, clang::IntegerLiteral, clang::FloatingLiteral,
                   clang::ArraySubscriptExpr, clang::MemberExpr, clang::ParenExpr>(E);
}

// X to the Power by squaring: "(x * x * x)" for 3, "((x * x) * (x * x))" for 4. Repeated
// subexpressions are written out; the compiler computes each once.
std::string product(const std::string &X, unsigned Power) {
  if (Power == 1)
    return X;
  std::string Half = product(X, Power / 2);
  return Power % 2 ? llvm::formatv("({0} * {0} * {1})", Half, X).str()
                   : llvm::formatv("({0} * {0})", Half).str();
}

// Call as its product; refused where Calls (every such call) has another in
// its argument.
llvm::Error expandPower(UnitAST &AST, const clang::CallExpr &Call,
                        llvm::ArrayRef<const clang::CallExpr *> Calls) {
  unsigned Power = *frontend::smallIntegerPower(Call);
  const clang::Expr *Arg = Call.getArg(0);
  for (const clang::CallExpr *Other : Calls)
    if (Other != &Call && Arg->getSourceRange().fullyContains(Other->getSourceRange()))
      return unsupported(AST, Call.getBeginLoc(),
                         "pow's argument holds another pow that is expanded");
  if (hasEffects(Arg, AST.Ctx))
    return unsupported(AST, Call.getBeginLoc(),
                       "pow's argument has side effects, and would be evaluated " +
                           std::to_string(Power) + " times");
  std::string Text = AST.text(Arg->getSourceRange());
  if (Text.empty() || Call.getBeginLoc().isMacroID() || Call.getEndLoc().isMacroID())
    return unsupported(AST, Call.getBeginLoc(), "the pow call comes from a macro");
  // The argument as the call computes it: std::pow on a float and an int
  // multiplies doubles.
  std::string Computed = frontend::powComputedType(Call);
  bool Cast = frontend::powArgumentType(*Arg) != Computed;
  // A primary needs parentheses only behind a cast; anything else always.
  std::string Operand = isPrimary(Arg) && !Cast ? Text : llvm::formatv("({0})", Text).str();
  if (Cast)
    Operand = llvm::formatv("({0}){1}", Computed, Operand).str();
  AST.Rewrite.ReplaceText(Call.getSourceRange(), product(Operand, Power));
  return llvm::Error::success();
}

class StrengthReduction : public Transform {
public:
  llvm::StringRef id() const override { return "strength-reduction"; }
  // Products in place of pow: correctly rounded where pow is within 2 ulp.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Kernel.Features.IntegerPowers == 0)
      return Offer::no(NoPower.str());
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    auto Made = rewriteUnitWith<unsigned>(In, [](UnitAST &AST) -> llvm::Expected<unsigned> {
      return rewriteEachCall(
          AST,
          [](const clang::CallExpr &Call) { return frontend::smallIntegerPower(Call).has_value(); },
          [&](const clang::CallExpr &Call, llvm::ArrayRef<const clang::CallExpr *> Calls) {
            return expandPower(AST, Call, Calls);
          },
          NoPower);
    });
    if (!Made)
      return Made.takeError();
    const unsigned Changes = Made->Found;
    return TransformOutput{std::move(Made->UnitText), std::nullopt,
                           "pow with a small integer exponent as multiplications: " +
                               std::to_string(Changes) + (Changes == 1 ? " call" : " calls")};
  }
};
} // namespace

std::unique_ptr<Transform> makeStrengthReductionTransform() {
  return std::make_unique<StrengthReduction>();
}

} // namespace kopt::transform
