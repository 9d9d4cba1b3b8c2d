// unroll: '#pragma unroll F' on one canonical for loop that has no unroll
// pragma yet. Unrolling keeps what the loop computes; the variant differs in
// instruction-level parallelism and register use.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <algorithm>
#include <numeric>

namespace kopt::transform {

namespace {
bool unrollable(const frontend::LoopFeature &L) {
  return L.LoopKind == frontend::LoopFeature::Kind::For && L.Canonical && !L.Unroll;
}

// The whitespace before Loc on its line, or empty where code precedes it.
std::optional<std::string> indentBefore(clang::SourceLocation Loc, const clang::SourceManager &SM) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Buffer.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Before = Buffer.slice(LineStart, Offset);
  if (!Before.trim().empty())
    return std::nullopt;
  return Before.str();
}

class Unroll : public Transform {
public:
  llvm::StringRef id() const override { return "unroll"; }

  std::vector<ParamDecl> params() const override {
    return {{"loop", {}, /*Min=*/0}, {"factor", {2, 4, 8, 16}}};
  }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    const std::vector<frontend::LoopFeature> &Loops = Kernel.Features.Loops;
    if (Loops.empty())
      return Offer::no("the kernel has no loop");
    std::vector<int64_t> Order(Loops.size());
    std::iota(Order.begin(), Order.end(), 0);
    // Innermost loops first: their bodies are where unrolling pays.
    std::stable_sort(Order.begin(), Order.end(),
                     [&](int64_t A, int64_t B) { return Loops[A].Depth > Loops[B].Depth; });
    std::vector<ParamSet> Space;
    for (int64_t I : Order)
      if (unrollable(Loops[I]))
        for (int64_t Factor : {4, 2, 8, 16})
          Space.push_back({{"loop", I}, {"factor", Factor}});
    if (Space.empty())
      return Offer::no("no loop is a canonical for loop without an unroll pragma");
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Index = Params.at("loop"), Factor = Params.at("factor");
    const std::vector<frontend::LoopFeature> &Loops = In.Kernel.Features.Loops;
    if (static_cast<size_t>(Index) >= Loops.size())
      return llvm::createStringError("the kernel has no loop %lld", static_cast<long long>(Index));
    const frontend::LoopFeature &Loop = Loops[Index];
    if (!unrollable(Loop))
      return llvm::createStringError("the loop at unit line %u is not a canonical for loop without "
                                     "an unroll pragma",
                                     Loop.Line);
    std::string Pragma = "#pragma unroll " + std::to_string(Factor);
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      const clang::ForStmt *For = nullptr;
      forEachStmt(AST.Kernel.getBody(), [&](const clang::Stmt *S) {
        if (!For && llvm::isa<clang::ForStmt>(S) && AST.line(S->getBeginLoc()) == Loop.Line &&
            AST.column(S->getBeginLoc()) == Loop.Column)
          For = llvm::cast<clang::ForStmt>(S);
      });
      if (!For)
        return llvm::createStringError("no for loop at line %u, column %u", Loop.Line, Loop.Column);
      clang::SourceLocation Begin = For->getBeginLoc();
      if (Begin.isMacroID())
        return llvm::createStringError("the loop at unit line %u comes from a macro", Loop.Line);
      if (std::optional<std::string> Indent = indentBefore(Begin, AST.Ctx.getSourceManager()))
        AST.Rewrite.InsertTextBefore(Begin, Pragma + "\n" + *Indent);
      else
        AST.Rewrite.InsertTextBefore(Begin, "\n" + Pragma + "\n");
      return llvm::Error::success();
    });
    if (!Text)
      return Text.takeError();
    return TransformOutput{std::move(*Text), std::nullopt,
                           "unrolled the loop at unit line " + std::to_string(Loop.Line) + " by " +
                               std::to_string(Factor)};
  }
};
} // namespace

std::unique_ptr<Transform> makeUnrollTransform() { return std::make_unique<Unroll>(); }

} // namespace kopt::transform
