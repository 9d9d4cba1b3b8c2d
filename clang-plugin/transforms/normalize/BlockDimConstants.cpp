// block-dim-constants (a normalization, Normalization.h): a kernel written for
// one block size often multiplies blockIdx.c by that size as a constant
// (`blockIdx.x * BLOCK_SIZE + threadIdx.x` in textbooks, `256 * blockIdx.x +
// threadIdx.x`, Rodinia's `bx * BLOCK_SIZE + tx` with bx an alias of
// blockIdx.x). Under the pragma's launch contract that constant is blockDim.c,
// and written so the kernel's global index has the form that every transform
// regrouping threads matches (blockIdx.c * blockDim.c + threadIdx.c). Only
// where the pragma's block dimension c evaluates and equals the constant, and
// the constant's text lies in the file (a macro name or a literal, not a
// product inside a macro). The variant is verified and run under the same
// launch, so the two read the same value wherever the kernel runs.
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <llvm/ADT/StringExtras.h>

#include <set>

namespace kopt::transform {

llvm::Expected<std::string> blockDimsForConstants(UnitAST &U, const NormalizeOptions &Options) {
  // A unit cut down to what the kernel names may lack blockDim's declaration
  // (CUDA's headers always have it).
  if (!Options.Block ||
      U.Ctx.getTranslationUnitDecl()->lookup(&U.Ctx.Idents.get("blockDim")).empty())
    return std::string();
  const clang::Stmt *Body = U.Kernel.getBody();
  std::set<const clang::VarDecl *> Changed = changedVariables(Body);
  std::set<std::string> Replaced;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(S);
    if (!Mul || Mul->getOpcode() != clang::BO_Mul || !Mul->getType()->isIntegerType())
      return;
    for (auto [Index, Constant] :
         {std::pair(Mul->getLHS(), Mul->getRHS()), std::pair(Mul->getRHS(), Mul->getLHS())}) {
      std::optional<frontend::IndexBuiltin> B = builtinThroughLocal(Index, Changed);
      std::optional<char> C =
          B && B->Var == "blockIdx" ? std::optional<char>(B->Component) : std::nullopt;
      // A wider constant may be there to widen the product: left as it is.
      if (!C || Constant->isValueDependent() ||
          U.Ctx.getTypeSize(Constant->IgnoreParenImpCasts()->getType()) > 32)
        continue;
      std::optional<llvm::APSInt> Value = Constant->getIntegerConstantExpr(U.Ctx);
      if (!Value || Value->getExtValue() != (*Options.Block)[*C - 'x'])
        continue;
      llvm::Expected<clang::CharSourceRange> Range =
          fileRange(U, Constant->IgnoreParens()->getSourceRange());
      if (!Range) { // Inside a macro: left as it is.
        llvm::consumeError(Range.takeError());
        continue;
      }
      std::string Text = U.Rewrite.getRewrittenText(*Range);
      U.Rewrite.ReplaceText(*Range, std::string("blockDim.") + *C);
      Replaced.insert(Text + " as blockDim." + *C);
      break;
    }
  });
  if (Replaced.empty())
    return std::string();
  return "read " + llvm::join(Replaced, ", ") + " (the launch's block)";
}

} // namespace kopt::transform
