// row-cooperative: a kernel written one thread per row becomes one block per
// row. The global index r = blockIdx.x * blockDim.x + threadIdx.x becomes
// blockIdx.x, the launch gives grid_x * block_x blocks of B threads, and the
// block shares the row's work as CooperativePlan.h describes: each counted
// loop over the row strides by blockDim.x from threadIdx.x, a loop that folds
// the row into one value (s += e, s = fmaxf(s, e), y[r] += e) is followed by a
// block-wide reduction that leaves the total in every thread, a loop that
// writes only p[j] or p[E + j] needs none, and stores outside the loops run in
// thread 0. Anything else (scans, loops carrying other state, while loops) is
// refused: a wrong rewrite is worse than none. inner-loop-parallel does the
// same with warps, 2D kernels and columns.
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GlobalIndex.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"
#include "clang-plugin/transforms/parallel/CooperativePlan.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/Rewrite/Core/Rewriter.h>

namespace kopt::transform {

namespace {
// Most promising first: on an H100, 256 and 512 were within 10% of each
// other on softmax, layer norm and matvec rows; 32 was slowest.
constexpr int64_t Blocks[] = {256, 512, 128, 32};

class RowCooperative : public Transform {
public:
  llvm::StringRef id() const override { return "row-cooperative"; }

  std::vector<ParamDecl> params() const override {
    return {{"block", {32, 64, 128, 256, 512, 1024}}};
  }
  // Folds end in a block reduction: their terms are summed in another order.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fits(Kernel); !F)
      return F.offer();
    if (Kernel.Features.Loops.empty())
      return Offer::no("the kernel has no loop over a row");
    // The thread-per-row signature: lanes a row apart in some loop. Where the
    // loops' accesses are coalesced across threads already (a sum over the
    // middle dimension), one block per row reads strided and loses.
    bool Strided = false;
    for (const frontend::MemoryAccess &A : Kernel.Features.Accesses)
      Strided |= A.Loop >= 0 && A.Pattern == frontend::AccessPattern::Strided;
    if (!Strided)
      return Offer::no("no loop reads memory a row apart between neighbouring threads (the "
                       "thread-per-row signature)");
    // A block wider than the row idles; a short row (a convolution window)
    // gains nothing.
    std::optional<int64_t> Trip = longestRowLoop(Kernel);
    std::vector<ParamSet> Space;
    for (int64_t B : Blocks)
      if (!Trip || B <= *Trip)
        Space.push_back({{"block", B}});
    if (Trip && *Trip < 64)
      return Offer::no("the rows are " + std::to_string(*Trip) +
                       " long: too short to share among a block");
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Size = Params.at("block");
    if (Fit F = fits(In.Kernel); !F)
      return llvm::createStringError(F.whyNot());
    unsigned Loops = 0, Reductions = 0;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      if (AST.Kernel.hasAttr<clang::CUDALaunchBoundsAttr>())
        return llvm::createStringError("the kernel has __launch_bounds__");
      llvm::Expected<GlobalIndexShape> Shape = findGlobalIndexShape(AST);
      if (!Shape)
        return Shape.takeError();
      if (Shape->GridStride)
        return llvm::createStringError("a grid-stride kernel");
      LaneGroup Group;
      Group.Shape = LaneGroup::Kind::Block;
      Group.Threads = static_cast<unsigned>(Size);
      CooperativePlanner Plan(AST, Group, In.Kernel.Pragma && In.Kernel.Pragma->NoAlias);
      if (llvm::Error E = Plan.run())
        return E;
      if (Plan.loops() == 0)
        return llvm::createStringError("the kernel has no loop over a row");
      // One block a row: the row is the block's index, after any offset.
      for (const GlobalIndex &Index : Shape->Indices) {
        bool Failed =
            Index.Offset ? AST.Rewrite.ReplaceText(Index.Product->getSourceRange(), "blockIdx.x") ||
                               AST.Rewrite.ReplaceText(Index.Thread->getSourceRange(), "0")
                         : AST.Rewrite.ReplaceText(Index.Whole->getSourceRange(), "blockIdx.x");
        if (Failed)
          return unsupported(AST, Index.Whole->getBeginLoc(), "cannot rewrite the global index");
      }
      Loops = Plan.loops();
      Reductions = Plan.reductions();
      return llvm::Error::success();
    });
    if (!Text)
      return Text.takeError();
    std::string B = std::to_string(Size);
    frontend::LaunchMapping Launch;
    Launch.Grid[0] = "grid_x * block_x";
    Launch.Block[0] = B;
    return TransformOutput{std::move(*Text), Launch,
                           "one block of " + B + " threads per row (" + std::to_string(Loops) +
                               " loops, " + std::to_string(Reductions) + " block reductions)"};
  }

private:
  // The trip count of the longest outermost loop where the pragma's args give
  // every outermost loop's bounds; empty where one is unknown.
  static std::optional<int64_t> longestRowLoop(const frontend::KernelSummary &Kernel) {
    if (!Kernel.Pragma)
      return std::nullopt;
    auto Value = [&](const std::string &Text) { return pragmaIntValue(Kernel, Text); };
    int64_t Longest = 0;
    for (const frontend::LoopFeature &L : Kernel.Features.Loops) {
      if (L.Depth != 0)
        continue;
      std::optional<int64_t> Init = Value(L.Init), Bound = Value(L.Bound);
      if (!Init || !Bound)
        return std::nullopt;
      Longest = std::max(Longest, *Bound - *Init + (L.Comparison == "<=" ? 1 : 0));
    }
    return Longest;
  }

  static Fit fits(const frontend::KernelSummary &Kernel) {
    if (Fit F = fits1DGuarded(Kernel); !F)
      return F;
    for (const std::string &B : Kernel.Features.IndexBuiltins)
      if (llvm::StringRef(B).starts_with("gridDim"))
        return Fit::no("the kernel reads gridDim (a grid-stride loop: grid-stride-cover first)");
    return Fit::yes();
  }
};
} // namespace

std::unique_ptr<Transform> makeRowCooperativeTransform() {
  return std::make_unique<RowCooperative>();
}

} // namespace kopt::transform
