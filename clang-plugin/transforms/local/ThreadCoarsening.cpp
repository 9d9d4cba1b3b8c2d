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

  std::vector<ParamSet> parameterSpace(const frontend::KernelSummary &Kernel) const override {
    if (!looksLike1DGuarded(Kernel) || Kernel.Features.Guards.empty())
      return {};
    for (const std::string &B : Kernel.Features.IndexBuiltins)
      if (llvm::StringRef(B).starts_with("gridDim"))
        return {}; // A grid-stride loop: a smaller grid coarsens it already.
    return {{{"factor", 2}}, {{"factor", 4}}, {{"factor", 8}}};
  }

  llvm::Expected<TransformOutput> apply(const TransformInput &In,
                                        const ParamSet &Params) const override {
    if (llvm::Error E = checkParamNames(Params, {"factor"}))
      return E;
    llvm::Expected<int64_t> Factor = requireParam(Params, "factor", {2, 4, 8});
    if (!Factor)
      return Factor.takeError();
    if (!looksLike1DGuarded(In.Kernel) || In.Kernel.Features.Guards.empty())
      return llvm::createStringError("the kernel is not a 1D guarded kernel without shared "
                                     "memory, barriers or warp intrinsics");
    std::string F = std::to_string(*Factor);
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
    Launch.Grid[0] = "(grid_x + " + std::to_string(*Factor - 1) + ") / " + F;
    return TransformOutput{std::move(*Text), Launch, "each thread does " + F + " threads' work"};
  }
};
} // namespace

std::unique_ptr<Transform> makeThreadCoarseningTransform() {
  return std::make_unique<ThreadCoarsening>();
}

} // namespace kopt::transform
