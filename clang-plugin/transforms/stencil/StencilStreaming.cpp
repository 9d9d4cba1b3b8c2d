// stencil-streaming: a 3-D stencil (StencilIdiom.h) computed by BX x BY
// blocks that march along z. Each block takes CZ consecutive planes (the grid's
// z shrinks by CZ through the launch mapping); each tiled input keeps a ring of
// the planes its neighbourhood spans in shared memory: before each step the
// block loads the newest plane (the cells the original reads, as for
// stencil-tiling), synchronizes, and the kernel's body runs for the thread's
// (x, y) at that z with its reads taken from the ring; a second barrier ends
// the step. A return in the body ends the thread's step, not its march.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/stencil/StencilIdiom.h"
#include "clang-plugin/transforms/stencil/StencilTiles.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/Support/FormatVariadic.h>

namespace kopt::transform {

namespace {
constexpr llvm::StringLiteral Next = "kopt_next_plane";
const std::array<std::string, 3> Marching = {"", "", "kopt_z"};

class StencilStreaming : public Transform {
public:
  llvm::StringRef id() const override { return "stencil-streaming"; }

  std::vector<ParamDecl> params() const override {
    return {{"BX", {32, 16, 64, 128}}, {"BY", {8, 2, 4, 16, 32}}, {"CZ", {16, 4, 8, 32, 64, 128}}};
  }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fitsStencil(Kernel, /*Need3D=*/true); !F)
      return F.offer();
    return Offer::of({{{"BX", 32}, {"BY", 8}, {"CZ", 16}},
                      {{"BX", 32}, {"BY", 16}, {"CZ", 32}},
                      {{"BX", 64}, {"BY", 4}, {"CZ", 16}},
                      {{"BX", 32}, {"BY", 8}, {"CZ", 64}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t BX = Params.at("BX"), BY = Params.at("BY"), CZ = Params.at("CZ");
    if (BX * BY > 1024)
      return llvm::createStringError("a block of more than 1024 threads");
    std::string Summary;
    bool NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
    llvm::Expected<std::string> Text =
        rewriteUnit(In, [&](UnitAST &U) { return rewrite(U, {BX, BY, 1}, CZ, NoAlias, Summary); });
    if (!Text)
      return Text.takeError();
    frontend::LaunchMapping Launch;
    Launch.Block = {std::to_string(BX), std::to_string(BY), "1"};
    Launch.Grid = {coveringGrid('x', BX), coveringGrid('y', BY), coveringGrid('z', CZ)};
    return TransformOutput{std::move(*Text), Launch, Summary};
  }

private:
  static llvm::Error rewrite(UnitAST &U, const std::array<int64_t, 3> &Block, int64_t CZ,
                             bool NoAlias, std::string &Summary) {
    llvm::Expected<const clang::CompoundStmt *> PlainBody = stencilBody(U);
    if (!PlainBody)
      return PlainBody.takeError();
    const clang::CompoundStmt *Body = *PlainBody;
    frontend::IndexPolyBuilder B(U.Ctx, U.Kernel);
    llvm::Expected<StencilIdiom> S = findStencilIdiom(U, B);
    if (!S)
      return S.takeError();
    if (llvm::Error E = checkTilesDoNotAlias(U, *S, NoAlias))
      return E;
    if (S->Dims != 7)
      return unsupported(U, U.Kernel.getLocation(),
                         "not a 3-D kernel: there is no z to march along");
    StencilCode Code(U, B, *S, {Block, /*Ring=*/true});
    if (llvm::Error E = Code.checkSharedBytes())
      return E;
    llvm::Expected<std::string> Decls = Code.declarations();
    if (!Decls)
      return Decls.takeError();

    // The body for one plane: z is the march's, reads come from the rings,
    // returns end the step.
    const clang::SourceManager &SM = U.Ctx.getSourceManager();
    std::vector<TextEdit> ZEdits, Edits;
    positionEdits(*Body, Marching, ZEdits);
    for (const TileRead &R : S->Reads) {
      llvm::Expected<clang::CharSourceRange> Range = fileRange(U, R.Access->getSourceRange());
      if (!Range)
        return Range.takeError();
      std::vector<TextEdit> Within;
      for (const TextEdit &E : ZEdits)
        if (rangeInside(SM, R.Access->getSourceRange(), E.Range))
          Within.push_back(E);
      llvm::Expected<std::string> Fallback = editedText(U, *Range, Within);
      if (!Fallback)
        return Fallback.takeError();
      llvm::Expected<std::string> Read = Code.readText(R, *Fallback, Marching, "kopt_s");
      if (!Read)
        return Read.takeError();
      Edits.push_back({R.Access->getSourceRange(), *Read});
    }
    for (const TextEdit &E : ZEdits)
      if (llvm::none_of(S->Reads, [&](const TileRead &R) {
            return rangeInside(SM, R.Access->getSourceRange(), E.Range);
          }))
        Edits.push_back(E);
    bool Returns = false;
    forEachStmt(Body, [&](const clang::Stmt *St) {
      if (const auto *Ret = llvm::dyn_cast<clang::ReturnStmt>(St)) {
        Edits.push_back({clang::SourceRange(Ret->getBeginLoc()), "goto " + Next.str()});
        Returns = true;
      }
    });
    llvm::Expected<std::string> Step =
        editedText(U,
                   clang::CharSourceRange::getCharRange(Body->getLBracLoc().getLocWithOffset(1),
                                                        Body->getRBracLoc()),
                   std::move(Edits));
    if (!Step)
      return Step.takeError();

    std::string Out;
    llvm::raw_string_ostream OS(Out);
    OS << "{\n// kopt stencil-streaming: " << Block[0] << " x " << Block[1] << " blocks, " << CZ
       << " planes each\n"
       << *Decls << "const long long kopt_z0 = (long long)blockIdx.z * " << CZ << ";\n";
    std::string Rings;
    for (unsigned G = 0; G < S->Groups.size(); ++G) {
      const TileGroup &T = S->Groups[G];
      int64_t Planes = Code.extent(G, 2);
      Rings += llvm::formatv("{0}'{1}' ({2} planes of {3} x {4})", Rings.empty() ? "" : ", ",
                             T.Array->getName(), Planes, Code.extent(G, 0), Code.extent(G, 1))
                   .str();
      if (Planes < 2)
        continue;
      llvm::Expected<std::string> Loads = Code.loads(G, "kopt_plane", "kopt_k");
      if (!Loads)
        return Loads.takeError();
      OS << "for (int kopt_k = 0; kopt_k < " << Planes - 1 << "; ++kopt_k) {\n"
         << "const long long kopt_plane = kopt_z0 + " << T.Lo[2] << " + kopt_k;\n"
         << *Loads << "}\n";
    }
    OS << "for (int kopt_s = 0; kopt_s < " << CZ << "; ++kopt_s) {\n"
       << "const long long kopt_z = kopt_z0 + kopt_s;\n";
    for (unsigned G = 0; G < S->Groups.size(); ++G) {
      int64_t Planes = Code.extent(G, 2);
      llvm::Expected<std::string> Loads = Code.loads(
          G, "kopt_plane", llvm::formatv("(kopt_s + {0}) % {1}", Planes - 1, Planes).str());
      if (!Loads)
        return Loads.takeError();
      OS << "{\nconst long long kopt_plane = kopt_z + " << S->Groups[G].Hi[2] << ";\n"
         << *Loads << "}\n";
    }
    OS << "__syncthreads();\n{" << *Step << "}\n";
    if (Returns)
      OS << Next << ":;\n";
    OS << "__syncthreads();\n}\n}";
    U.Rewrite.ReplaceText(Body->getSourceRange(), Out);
    Summary =
        llvm::formatv("marched {0} x {1} blocks along z, {2} planes each, through rings of {3}",
                      Block[0], Block[1], CZ, Rings)
            .str();
    return llvm::Error::success();
  }
};
} // namespace

std::unique_ptr<Transform> makeStencilStreamingTransform() {
  return std::make_unique<StencilStreaming>();
}

} // namespace kopt::transform
