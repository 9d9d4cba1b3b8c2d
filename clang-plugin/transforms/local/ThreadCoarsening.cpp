// thread-coarsening: each thread does the work of F original threads, the grid
// shrunk F times through the launch contract. Thread g of the new grid runs the
// original body for global indices g, g + S, ..., g + (F-1)S, S the new grid's
// thread count, so a warp's accesses stay as coalesced as before. For 1D
// guarded kernels whose threads differ only in their global x index
// (GlobalIndex.h); indices past the original grid are the guard's to skip.
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GlobalIndex.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

namespace kopt::transform {

namespace {
constexpr llvm::StringLiteral Part = "kopt_part";

class ThreadCoarsening : public Transform {
public:
  llvm::StringRef id() const override { return "thread-coarsening"; }

  std::vector<ParamDecl> params() const override { return {{"factor", {2, 4, 8}}}; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fits(Kernel); !F)
      return F.offer();
    for (const std::string &B : Kernel.Features.IndexBuiltins)
      if (llvm::StringRef(B).starts_with("gridDim"))
        return Offer::no("the kernel reads gridDim (a grid-stride loop: a smaller grid "
                         "coarsens it already)");
    return Offer::of({{{"factor", 2}}, {{"factor", 4}}, {{"factor", 8}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Factor = Params.at("factor");
    if (Fit Fits = fits(In.Kernel); !Fits)
      return llvm::createStringError(Fits.whyNot());
    std::string F = std::to_string(Factor);
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      llvm::Expected<GlobalIndexShape> Shape = findGlobalIndexShape(AST);
      if (!Shape)
        return Shape.takeError();
      if (Shape->GridStride)
        return llvm::createStringError("a grid-stride kernel");
      const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(AST.Kernel.getBody());
      if (!Body || Body->getLBracLoc().isMacroID() || Body->getRBracLoc().isMacroID())
        return llvm::createStringError("the kernel's body is not a plain block");
      std::vector<TextEdit> Returns;
      if (llvm::Error E = returnsAsContinues(AST, Returns))
        return E;
      for (const TextEdit &R : Returns)
        AST.Rewrite.ReplaceText(R.Range, R.Text);
      for (const GlobalIndex &Index : Shape->Indices) {
        AST.Rewrite.InsertTextBefore(Index.Whole->getBeginLoc(), "(");
        AST.Rewrite.InsertTextAfterToken(Index.Whole->getEndLoc(),
                                         " + " + Part.str() + " * (gridDim.x * blockDim.x))");
      }
      AST.Rewrite.InsertTextAfterToken(Body->getLBracLoc(), "\nfor (unsigned " + Part.str() +
                                                                " = 0; " + Part.str() + " < " + F +
                                                                "; ++" + Part.str() + ") {");
      AST.Rewrite.InsertTextBefore(Body->getRBracLoc(), "}\n");
      return llvm::Error::success();
    });
    if (!Text)
      return Text.takeError();
    frontend::LaunchMapping Launch;
    Launch.Grid[0] = "(grid_x + " + std::to_string(Factor - 1) + ") / " + F;
    return TransformOutput{std::move(*Text), Launch, "each thread does " + F + " threads' work"};
  }

private:
  // A thread past the end must skip its extra positions: a bounds check.
  static Fit fits(const frontend::KernelSummary &Kernel) {
    if (Fit F = fits1DGuarded(Kernel); !F)
      return F;
    if (Kernel.Features.Guards.empty())
      return Fit::no("the kernel has no bounds check on its index");
    return Fit::yes();
  }
};
} // namespace

std::unique_ptr<Transform> makeThreadCoarseningTransform() {
  return std::make_unique<ThreadCoarsening>();
}

} // namespace kopt::transform
