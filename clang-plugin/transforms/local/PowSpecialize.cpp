// pow-specialize: pow(x, e) with a runtime or fractional exponent goes
// through a helper that tests e against the exponents applications pass most
// and computes those as the product, quotient or root they equal:
//   powf(d2, 0.5f * power)  -> kopt_powf_special(d2, 0.5f * power)
//   pow(ah, n)              -> kopt_pow_special(ah, n)
//   std::pow(r, k)          -> kopt_pow_special((double)(r), (double)(k))  an int
//                              exponent computes in double, as nvcc's <cmath> has it
// nvcc calls its general pow (a logarithm and an exponential, ~200 PTX
// instructions for powf) whatever e is at run time; an inverse-distance weight
// with power 2 (d2 to the 1) or a van Genuchten curve with n = 2 pays that in
// its innermost loop. The helper is inlined: a literal exponent folds to its
// case, and any other costs one range test and a switch on 2e, uniform across
// the warp where e is.
// Each case equals pow within pow's own error (CUDA's powf is within 4 ulp),
// including at zeros, infinities and NaNs: x * x, x * x * x, 1 / x and 1 / x / x
// for 2, 3, -1 and -2; sqrt(x), 1 / sqrt(x) and x * sqrt(x) for 0.5, -0.5 and
// 1.5 only where x > 0 (pow(-0, 0.5) is +0 and pow(-inf, 0.5) is +inf where
// sqrt gives -0 and NaN), and only where the unit declares sqrt; any other
// exponent, or base, calls pow.
#include "clang-plugin/analysis/IntegerPowers.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/FormatVariadic.h>

#include <vector>

namespace kopt::transform {

namespace {
constexpr llvm::StringLiteral NoPower =
    "the kernel calls no pow with a runtime, fractional or negative exponent";
// The helper for one floating type, a lambda at the top of the kernel's body
// (a variant changes nothing outside the kernel's definition): Name, T
// ("float" or "double"), F (the literal suffix), Sqrt and Pow (the type's).
// Roots: whether the unit declares Sqrt (a unit without CUDA's math headers
// may declare pow alone).
std::string helperFor(llvm::StringRef Name, llvm::StringRef T, llvm::StringRef F,
                      llvm::StringRef Sqrt, llvm::StringRef Pow, bool Roots) {
  // Twice the exponent is an integer from -4 to 6 for every case: one range
  // test and one conversion decide, so an exponent outside them costs a few
  // instructions before pow's own (a chain of compares cost 25% on a weight
  // loop whose power is 2.5).
  std::string RootCases =
      llvm::formatv("    case 1: if (x > 0.0{0}) return {1}(x); break;\n"
                    "    case -1: if (x > 0.0{0}) return 1.0{0} / {1}(x); break;\n"
                    "    case 3: if (x > 0.0{0}) return x * {1}(x); break;\n",
                    F, Sqrt)
          .str();
  return llvm::formatv("auto {3} = []({0} x, {0} e) -> {0} {\n"
                       "  const {0} t = e + e;\n"
                       "  if (t >= -4.0{1} && t <= 6.0{1} && t == ({0})(int)t) {\n"
                       "    switch ((int)t) {\n"
                       "    case 4: return x * x;\n"
                       "    case 2: return x;\n"
                       "    case 6: return x * x * x;\n"
                       "    case -2: return 1.0{1} / x;\n"
                       "    case -4: return 1.0{1} / x / x;\n"
                       "{4}"
                       "    default: break;\n"
                       "    }\n"
                       "  }\n"
                       "  return {2}(x, e);\n"
                       "};\n",
                       T, F, Pow, Name, Roots ? RootCases : "")
      .str();
}

struct HelperSpec {
  llvm::StringRef Type, Name, Suffix, Sqrt, Pow;
};
constexpr HelperSpec Helpers[] = {{"float", "kopt_powf_special", "f", "sqrtf", "powf"},
                                  {"double", "kopt_pow_special", "", "sqrt", "pow"}};

// Call through its type's helper, its arguments cast to the type the call
// computes in (pow(float, int) in double); Used gets the helper's type. Both
// arguments are checked before the first edit, so a refusal leaves the call
// as written.
llvm::Error specializePower(UnitAST &AST, const clang::CallExpr &Call, llvm::StringSet<> &Used) {
  const clang::Expr *Callee = Call.getCallee();
  if (Call.getBeginLoc().isMacroID() || Call.getEndLoc().isMacroID() ||
      AST.text(Callee->getSourceRange()).empty())
    return unsupported(AST, Call.getBeginLoc(), "the pow call comes from a macro");
  std::string Computed = frontend::powComputedType(Call);
  if (Computed == "long double")
    return unsupported(AST, Call.getBeginLoc(), "pow computes in long double");
  std::vector<const clang::Expr *> Cast;
  for (const clang::Expr *Arg : {Call.getArg(0), Call.getArg(1)}) {
    if (frontend::powArgumentType(*Arg) == Computed)
      continue;
    if (AST.text(Arg->getSourceRange()).empty())
      return unsupported(AST, Call.getBeginLoc(), "pow's argument comes from a macro");
    Cast.push_back(Arg);
  }
  for (const clang::Expr *Arg : Cast) {
    AST.Rewrite.InsertTextBefore(Arg->getBeginLoc(), "(" + Computed + ")(");
    AST.Rewrite.InsertTextAfterToken(Arg->getEndLoc(), ")");
  }
  const HelperSpec &H = Computed == "float" ? Helpers[0] : Helpers[1];
  AST.Rewrite.ReplaceText(Callee->getSourceRange(), H.Name);
  Used.insert(H.Type);
  return llvm::Error::success();
}

// The helpers of the types in Used, at the top of the kernel's body.
void insertHelpers(UnitAST &AST, const llvm::StringSet<> &Used) {
  const auto *Body = llvm::cast<clang::CompoundStmt>(AST.Kernel.getBody());
  std::string Text = "\n// kopt pow-specialize: pow at the exponents applications pass most, "
                     "each as the product,\n// quotient or root it equals (within pow's own "
                     "error); any other calls pow.\n";
  const clang::TranslationUnitDecl *Unit = AST.Ctx.getTranslationUnitDecl();
  for (const HelperSpec &H : Helpers)
    if (Used.contains(H.Type)) {
      bool Roots = !Unit->lookup(clang::DeclarationName(&AST.Ctx.Idents.get(H.Sqrt))).empty();
      Text += helperFor(H.Name, H.Type, H.Suffix, H.Sqrt, H.Pow, Roots);
    }
  AST.Rewrite.InsertTextAfterToken(Body->getLBracLoc(), Text);
}

class PowSpecialize : public Transform {
public:
  llvm::StringRef id() const override { return "pow-specialize"; }
  // Products and roots in place of pow: within pow's own error.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Kernel.Features.OtherPowers == 0)
      return Offer::no(NoPower.str());
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    auto Made = rewriteUnitWith<unsigned>(In, [](UnitAST &AST) -> llvm::Expected<unsigned> {
      llvm::StringSet<> Used; // The helpers' types the calls need.
      auto Rewritten = rewriteEachCall(
          AST, [](const clang::CallExpr &Call) { return frontend::isOtherPower(Call); },
          [&](const clang::CallExpr &Call, llvm::ArrayRef<const clang::CallExpr *>) {
            return specializePower(AST, Call, Used);
          },
          NoPower);
      if (Rewritten)
        insertHelpers(AST, Used);
      return Rewritten;
    });
    if (!Made)
      return Made.takeError();
    const unsigned Changes = Made->Found;
    return TransformOutput{std::move(Made->UnitText), std::nullopt,
                           "pow specialized for the exponents 2, 1, 3, -1, -2, 0.5, -0.5 and "
                           "1.5 at run time: " +
                               std::to_string(Changes) + (Changes == 1 ? " call" : " calls")};
  }
};
} // namespace

std::unique_ptr<Transform> makePowSpecializeTransform() {
  return std::make_unique<PowSpecialize>();
}

} // namespace kopt::transform
