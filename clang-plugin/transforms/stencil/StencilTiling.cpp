// stencil-tiling: the stencil idiom (StencilIdiom.h) through shared-memory
// tiles. The block becomes BX x BY (x BZ for 3-D kernels) threads over the
// same positions; at the top of the kernel the block's threads load each tiled
// input's cells around the block (coalesced, a cell only where the original
// kernel reads it: the bounds checks, interior or not, decide as before), then
// synchronize, and the body runs as written with each read of a tiled input
// taken from its tile. A clamped read takes the tile where its clamp does not
// bite, global memory where it does.
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/stencil/StencilIdiom.h"
#include "clang-plugin/transforms/stencil/StencilTiles.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/Support/FormatVariadic.h>

namespace kopt::transform {

namespace {

std::string sizes(const std::array<int64_t, 3> &Block, bool ThreeD) {
  return ThreeD ? llvm::formatv("{0} x {1} x {2}", Block[0], Block[1], Block[2]).str()
                : llvm::formatv("{0} x {1}", Block[0], Block[1]).str();
}

class StencilTiling : public Transform {
public:
  llvm::StringRef id() const override { return "stencil-tiling"; }

  std::vector<ParamDecl> params() const override {
    // The first of each list is what a caller naming no point tries
    // (completeParams): a block of 256, so that a refusal is about the
    // kernel, not about the block.
    return {{"BX", {32, 8, 16, 64, 128}},
            {"BY", {8, 1, 2, 4, 16, 32}},
            {"BZ", {1, 2, 4, 8}, 0, /*Optional=*/true}};
  }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fitsStencil(Kernel, /*Need3D=*/false); !F)
      return F.offer();
    if (Kernel.Features.Dimensions >= 3)
      return Offer::of({{{"BX", 32}, {"BY", 4}, {"BZ", 4}},
                        {{"BX", 32}, {"BY", 8}, {"BZ", 2}},
                        {{"BX", 16}, {"BY", 8}, {"BZ", 4}},
                        {{"BX", 64}, {"BY", 4}, {"BZ", 2}}});
    return Offer::of({{{"BX", 32}, {"BY", 8}},
                      {{"BX", 32}, {"BY", 16}},
                      {{"BX", 64}, {"BY", 4}},
                      {{"BX", 16}, {"BY", 16}},
                      {{"BX", 64}, {"BY", 8}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t BX = Params.at("BX"), BY = Params.at("BY");
    int64_t BZ = Params.count("BZ") ? Params.at("BZ") : 1;
    std::array<int64_t, 3> Block = {BX, BY, BZ};
    if (BX * BY * BZ > 1024 || BX * BY * BZ < 32)
      return llvm::createStringError("a block of %lld threads (32 to 1024 make sense)",
                                     static_cast<long long>(BX * BY * BZ));
    bool ThreeD = false;
    std::string Summary;
    bool NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
    llvm::Expected<std::string> Text =
        rewriteUnit(In, [&](UnitAST &U) { return rewrite(U, Block, NoAlias, ThreeD, Summary); });
    if (!Text)
      return Text.takeError();
    frontend::LaunchMapping Launch;
    // A 2-D tile runs one z a block; the grid's z stays.
    for (int D = 0; D < 3; ++D)
      Launch.Block[D] = std::to_string(D < 2 || ThreeD ? Block[D] : 1);
    for (int D = 0; D < (ThreeD ? 3 : 2); ++D)
      Launch.Grid[D] = coveringGrid(char('x' + D), Block[D]);
    return TransformOutput{std::move(*Text), Launch, std::move(Summary)};
  }

private:
  static llvm::Error rewrite(UnitAST &U, const std::array<int64_t, 3> &Block, bool NoAlias,
                             bool &ThreeD, std::string &Summary) {
    llvm::Expected<const clang::CompoundStmt *> Body = stencilBody(U);
    if (!Body)
      return Body.takeError();
    frontend::IndexPolyBuilder B(U.Ctx, U.Kernel);
    llvm::Expected<StencilIdiom> S = findStencilIdiom(U, B);
    if (!S)
      return S.takeError();
    if (llvm::Error E = checkTilesDoNotAlias(U, *S, NoAlias))
      return E;
    ThreeD = S->Dims & 4;
    if (!ThreeD && Block[2] != 1)
      return unsupported(U, U.Kernel.getLocation(), "BZ is for 3-D kernels");
    StencilCode Code(U, B, *S, {Block, false});
    if (llvm::Error E = Code.checkSharedBytes())
      return E;
    llvm::Expected<std::string> Decls = Code.declarations();
    if (!Decls)
      return Decls.takeError();
    std::string Prologue =
        "\n// kopt stencil-tiling: " + sizes(Block, ThreeD) + " blocks\n" + *Decls;
    std::string Tiles;
    for (unsigned G = 0; G < S->Groups.size(); ++G) {
      llvm::Expected<std::string> Loads = Code.loads(G);
      if (!Loads)
        return Loads.takeError();
      Prologue += *Loads;
      std::array<int64_t, 3> Extent = {Code.extent(G, 0), Code.extent(G, 1), Code.extent(G, 2)};
      Tiles += llvm::formatv("{0}'{1}' ({2})", Tiles.empty() ? "" : ", ",
                             S->Groups[G].Array->getName(), sizes(Extent, ThreeD))
                   .str();
    }
    Prologue += "__syncthreads();\n";
    for (const TileRead &R : S->Reads) {
      llvm::Expected<clang::CharSourceRange> Range = fileRange(U, R.Access->getSourceRange());
      if (!Range)
        return Range.takeError();
      llvm::Expected<std::string> Fallback = exprText(U, *R.Access);
      if (!Fallback)
        return Fallback.takeError();
      llvm::Expected<std::string> Read = Code.readText(R, *Fallback, {"", "", ""});
      if (!Read)
        return Read.takeError();
      U.Rewrite.ReplaceText(*Range, *Read);
    }
    U.Rewrite.InsertTextAfterToken((*Body)->getLBracLoc(), Prologue);
    Summary = llvm::formatv("staged {0} through shared-memory tiles of {1} blocks ({2} reads)",
                            Tiles, sizes(Block, ThreeD), S->Reads.size())
                  .str();
    return llvm::Error::success();
  }
};
} // namespace

std::unique_ptr<Transform> makeStencilTilingTransform() {
  return std::make_unique<StencilTiling>();
}

} // namespace kopt::transform
