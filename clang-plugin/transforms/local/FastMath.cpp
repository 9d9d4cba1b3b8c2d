// fast-math: the kernel's own float math through the hardware approximations,
// one group at a time (parameter "group"):
//   1 intrinsics  expf logf sinf cosf powf -> __expf __logf __sinf __cosf __powf
//   2 division    x / y (float)            -> __fdividef(x, y)
//   3 rsqrt       1.0f / sqrtf(x)          -> rsqrtf(x)
//   0 all three (rsqrt before division).
// Only the kernel's body changes; device functions it calls keep full precision.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringSet.h>

namespace kopt::transform {

namespace {
enum Group : int64_t { All = 0, Intrinsics = 1, Division = 2, Rsqrt = 3 };

// Each has its approximation under the same name with "__" in front.
const llvm::StringSet<> &intrinsicFor() {
  static const llvm::StringSet<> Names = {"expf", "logf", "sinf", "cosf", "powf"};
  return Names;
}

bool isFloat(const clang::Expr *E) {
  return E->getType()->isSpecificBuiltinType(clang::BuiltinType::Float);
}

const clang::FunctionDecl *calleeOf(const clang::CallExpr *Call) {
  const clang::FunctionDecl *F = Call->getDirectCallee();
  return F && F->getIdentifier() && !llvm::isa<clang::CXXMethodDecl>(F) ? F : nullptr;
}

// 1.0f / sqrtf(x) (also 1 / sqrtf(x)): the sqrtf call, else null.
const clang::CallExpr *rsqrtCall(const clang::BinaryOperator *Div) {
  if (Div->getOpcode() != clang::BO_Div || !isFloat(Div))
    return nullptr;
  const clang::Expr *One = Div->getLHS()->IgnoreParenImpCasts();
  bool IsOne = false;
  if (const auto *F = llvm::dyn_cast<clang::FloatingLiteral>(One))
    IsOne = F->getValue().isExactlyValue(1.0);
  else if (const auto *I = llvm::dyn_cast<clang::IntegerLiteral>(One))
    IsOne = I->getValue() == 1;
  const auto *Call = llvm::dyn_cast<clang::CallExpr>(Div->getRHS()->IgnoreImpCasts());
  const clang::FunctionDecl *F = Call ? calleeOf(Call) : nullptr;
  if (!IsOne || !F || F->getName() != "sqrtf" || Call->getNumArgs() != 1)
    return nullptr;
  return Call;
}

// The rewrites, as insertions and token replacements that nest: an operand that
// is itself rewritten keeps its own edits.
class FastMathEdit {
public:
  FastMathEdit(UnitAST &Unit, int64_t Which) : AST(Unit), G(Which) {}

  llvm::Error run() {
    // rsqrt first: its divisions are not also turned into __fdividef.
    forEachStmt(AST.Kernel.getBody(), [&](const clang::Stmt *S) {
      if (const auto *Div = llvm::dyn_cast<clang::BinaryOperator>(S))
        if (wants(Rsqrt))
          if (const clang::CallExpr *Call = rsqrtCall(Div))
            rewriteRsqrt(Div, Call);
    });
    forEachStmt(AST.Kernel.getBody(), [&](const clang::Stmt *S) {
      if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S); Call && wants(Intrinsics))
        rewriteIntrinsic(Call);
      if (const auto *Div = llvm::dyn_cast<clang::BinaryOperator>(S); Div && wants(Division))
        rewriteDivision(Div);
    });
    if (Changes == 0)
      return llvm::createStringError("the kernel has no float math of that group");
    return llvm::Error::success();
  }

  unsigned changes() const { return Changes; }

private:
  bool wants(Group Which) const { return G == All || G == Which; }

  static bool fromMacro(clang::SourceRange R) {
    return R.getBegin().isMacroID() || R.getEnd().isMacroID();
  }

  void rewriteRsqrt(const clang::BinaryOperator *Div, const clang::CallExpr *Sqrt) {
    if (fromMacro(Div->getSourceRange()))
      return;
    // "1.0f / sqrtf(" becomes "rsqrtf(": the argument and ')' stay.
    AST.Rewrite.ReplaceText(
        clang::CharSourceRange::getCharRange(Div->getBeginLoc(), Sqrt->getArg(0)->getBeginLoc()),
        "rsqrtf(");
    Done.insert(Div);
    ++Changes;
  }

  void rewriteIntrinsic(const clang::CallExpr *Call) {
    const clang::FunctionDecl *F = calleeOf(Call);
    const auto *Callee =
        llvm::dyn_cast<clang::DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
    if (!F || !Callee || Callee->hasQualifier() || !intrinsicFor().contains(F->getName()) ||
        Callee->getLocation().isMacroID())
      return;
    // expf -> __expf. After what an enclosing division inserted at the same place.
    AST.Rewrite.InsertTextAfter(Callee->getLocation(), "__");
    ++Changes;
  }

  void rewriteDivision(const clang::BinaryOperator *Div) {
    if (Div->getOpcode() != clang::BO_Div || !isFloat(Div) || Done.contains(Div) ||
        fromMacro(Div->getSourceRange()))
      return;
    AST.Rewrite.InsertTextBefore(Div->getBeginLoc(), "__fdividef(");
    AST.Rewrite.ReplaceText(Div->getOperatorLoc(), 1, ",");
    AST.Rewrite.InsertTextAfterToken(Div->getEndLoc(), ")");
    ++Changes;
  }

  UnitAST &AST;
  int64_t G;
  unsigned Changes = 0;
  llvm::DenseSet<const clang::BinaryOperator *> Done;
};

class FastMath : public Transform {
public:
  llvm::StringRef id() const override { return "fast-math"; }

  std::vector<ParamDecl> params() const override {
    return {{"group", {All, Intrinsics, Division, Rsqrt}}};
  }
  // Each rewrite swaps a correctly rounded operation for an approximation.
  Numerics numerics() const override { return Numerics::Approximates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    const frontend::KernelFeatures &F = Kernel.Features;
    bool HasIntrinsics = false, HasSqrt = false;
    for (const frontend::CallFeature &C : F.MathCalls) {
      HasIntrinsics |= intrinsicFor().contains(C.Name);
      HasSqrt |= C.Name == "sqrtf";
    }
    std::vector<ParamSet> Space;
    if (HasIntrinsics)
      Space.push_back({{"group", Intrinsics}});
    if (F.FloatDivisions > 0)
      Space.push_back({{"group", Division}});
    if (HasSqrt && F.FloatDivisions > 0)
      Space.push_back({{"group", Rsqrt}});
    if (Space.empty())
      return Offer::no("the kernel has no float math the hardware approximates (expf, logf, "
                       "sinf, cosf, powf, float division)");
    if (Space.size() > 1)
      Space.insert(Space.begin(), ParamSet{{"group", All}});
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Which = Params.at("group");
    unsigned Changes = 0;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      FastMathEdit Edit(AST, Which);
      llvm::Error E = Edit.run();
      Changes = Edit.changes();
      return E;
    });
    if (!Text)
      return Text.takeError();
    static constexpr const char *Names[] = {"all", "intrinsics", "division", "rsqrt"};
    return TransformOutput{std::move(*Text), std::nullopt,
                           std::string("fast math (") + Names[Which] +
                               "): " + std::to_string(Changes) + " rewrites"};
  }
};
} // namespace

std::unique_ptr<Transform> makeFastMathTransform() { return std::make_unique<FastMath>(); }

} // namespace kopt::transform
