// block-shape-2d: another block shape for a 2-D or 3-D kernel (16 x 16 ->
// 32 x 8, 64 x 4, 128 x 2, ...) through the launch contract, each grid
// dimension scaled to cover the same positions; the code stays. Only for
// kernels whose threads differ by nothing but their positions
// blockIdx.c * blockDim.c + threadIdx.c (ThreadPositions.h): no shared memory,
// barriers or warp intrinsics, no other use of the geometry. The threads a
// rounded-up grid adds must do nothing: every global memory access must be
// under a condition that bounds each position from above (else it refuses).
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/stencil/StencilIdiom.h"
#include "clang-plugin/transforms/stencil/ThreadPositions.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>

namespace kopt::transform {

namespace {
// Most promising first: wide in x for coalescing, 256 threads.
constexpr std::array<int64_t, 3> Shapes2D[] = {{32, 8, 1},  {64, 4, 1},  {32, 16, 1},
                                               {128, 2, 1}, {16, 16, 1}, {32, 4, 1},
                                               {64, 8, 1},  {8, 32, 1},  {256, 1, 1}};
constexpr std::array<int64_t, 3> Shapes3D[] = {{32, 4, 2}, {32, 8, 1}, {64, 4, 1}, {32, 4, 4},
                                               {16, 8, 4}, {64, 2, 2}, {32, 2, 4}, {32, 8, 2}};

class BlockShape2D : public Transform {
public:
  llvm::StringRef id() const override { return "block-shape-2d"; }

  std::vector<ParamDecl> params() const override {
    return {{"BX", {8, 16, 32, 64, 128, 256, 512}},
            {"BY", {1, 2, 4, 8, 16, 32, 64}},
            {"BZ", {1, 2, 4, 8, 16}, 0, /*Optional=*/true}};
  }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    const frontend::KernelFeatures &F = Kernel.Features;
    if (Fit Fits = fitsRegrouping2D(Kernel); !Fits)
      return Fits.offer();
    std::optional<std::array<int64_t, 3>> Current = pragmaBlockDims(Kernel);
    std::vector<ParamSet> Space;
    bool ThreeD = F.Dimensions >= 3;
    for (const std::array<int64_t, 3> &S : ThreeD ? llvm::ArrayRef(Shapes3D) : Shapes2D) {
      if (Current && (*Current)[0] == S[0] && (*Current)[1] == S[1] &&
          (!ThreeD || (*Current)[2] == S[2]))
        continue;
      ParamSet P = {{"BX", S[0]}, {"BY", S[1]}};
      if (ThreeD)
        P["BZ"] = S[2];
      Space.push_back(P);
    }
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t BX = Params.at("BX"), BY = Params.at("BY");
    int64_t BZ = Params.count("BZ") ? Params.at("BZ") : 1;
    std::array<int64_t, 3> Shape = {BX, BY, BZ};
    if (BX * BY * BZ > 1024)
      return llvm::createStringError("a block of more than 1024 threads");
    unsigned Dims = 0;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &U) -> llvm::Error {
      if (U.Kernel.hasAttr<clang::CUDALaunchBoundsAttr>())
        return unsupported(U, U.Kernel.getLocation(), "the kernel has __launch_bounds__");
      StmtContents C = inspectStmt(*U.Kernel.getBody());
      if (C.Barrier || C.Shared || C.WarpIntrinsic)
        return unsupported(U, U.Kernel.getLocation(),
                           "barriers, shared memory and warp intrinsics depend on the block");
      frontend::IndexPolyBuilder B(U.Ctx, U.Kernel);
      Dims = B.threadDims();
      if ((Dims & 3) != 3)
        return unsupported(U, U.Kernel.getLocation(),
                           "not a 2-D or 3-D kernel (block-size tunes 1-D ones)");
      if (!(Dims & 4) && BZ != 1)
        return unsupported(U, U.Kernel.getLocation(), "BZ is for 3-D kernels");
      addForLoopVars(U, B);
      if (llvm::Error E = checkPositionForm(U, B))
        return E;
      if (llvm::Error E = checkInPlaceUpdates(U, B))
        return E;
      return checkBoundedAccesses(U, B, Dims);
    });
    if (!Text)
      return Text.takeError();
    frontend::LaunchMapping Launch;
    std::string Summary = "block";
    for (int D = 0; D < 3; ++D) {
      if (!(Dims & (1u << D)))
        continue; // A dimension the kernel does not tell apart keeps its launch.
      Launch.Block[D] = std::to_string(Shape[D]);
      Launch.Grid[D] = coveringGrid(char('x' + D), Shape[D]);
      Summary += (D ? " x " : " ") + Launch.Block[D];
    }
    return TransformOutput{std::move(*Text), Launch, Summary};
  }
};
} // namespace

std::unique_ptr<Transform> makeBlockShape2DTransform() { return std::make_unique<BlockShape2D>(); }

} // namespace kopt::transform
