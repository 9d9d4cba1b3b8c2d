// block-size: another 1D block size through the launch contract, the grid
// scaled to cover the same threads; the code stays. Only for kernels whose
// threads differ by nothing but their global x index (GlobalIndex.h), so that
// which block a thread lands in cannot matter; the threads added by rounding
// the grid up are the bounds guard's (or the grid-stride loop's) to skip.
#include "clang-plugin/transforms/framework/GlobalIndex.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>

namespace kopt::transform {

namespace {
constexpr int64_t Sizes[] = {256, 128, 512, 64, 1024}; // Most promising first.

class BlockSize : public Transform {
public:
  llvm::StringRef id() const override { return "block-size"; }

  std::vector<ParamDecl> params() const override { return {{"block", {64, 128, 256, 512, 1024}}}; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fits1DGuarded(Kernel); !F)
      return F.offer();
    std::optional<std::array<int64_t, 3>> Block = pragmaBlockDims(Kernel);
    std::vector<ParamSet> Space;
    for (int64_t Size : Sizes)
      if (!Block || (*Block)[0] != Size)
        Space.push_back({{"block", Size}});
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Size = Params.at("block");
    if (Fit F = fits1DGuarded(In.Kernel); !F)
      return llvm::createStringError(F.whyNot());
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      if (AST.Kernel.hasAttr<clang::CUDALaunchBoundsAttr>())
        return llvm::createStringError("the kernel has __launch_bounds__");
      return findGlobalIndexShape(AST).takeError();
    });
    if (!Text)
      return Text.takeError();
    std::string B = std::to_string(Size);
    frontend::LaunchMapping Launch;
    Launch.Block[0] = B;
    Launch.Grid[0] = "(grid_x * block_x + " + std::to_string(Size - 1) + ") / " + B;
    return TransformOutput{std::move(*Text), Launch, "block size " + B};
  }
};
} // namespace

std::unique_ptr<Transform> makeBlockSizeTransform() { return std::make_unique<BlockSize>(); }

} // namespace kopt::transform
