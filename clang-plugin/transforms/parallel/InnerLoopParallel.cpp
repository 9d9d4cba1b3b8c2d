// inner-loop-parallel: each thread of a kernel written one thread per output
// (a row sum, a column mean, a matrix-vector product in either orientation, a
// 2D output with a long k loop, covariance's sums) gets a group of lanes that
// share its loops: a warp's 2 to 32 lanes, or a whole block. The group's lanes
// stride through each loop that folds or that writes only its own element,
// combine folds with shuffles (and shared memory across a block's warps), and
// leave the rest of the thread's work to lane 0 (CooperativePlan.h). The
// launch gives every original thread a group; the grid grows by the lanes.
//   lanes:   2..32: a warp's lanes (blocks of 256 threads; 2D kernels get
//            32 x 8 blocks, one warp a row); 64..1024: one block a thread.
//   order:   0: a group's lanes side by side (the loop's accesses run along
//            its counter: rows); 1: interleaved, so that neighbouring outputs
//            sit on neighbouring lanes (accesses run along the output index:
//            columns, covariance).
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/normalize/Normalization.h"
#include "clang-plugin/transforms/parallel/CooperativePlan.h"

#include <llvm/ADT/StringRef.h>

namespace kopt::transform {

namespace {
constexpr unsigned WarpBlock = 256; // Threads a block where groups are warps.

class InnerLoopParallel : public Transform {
public:
  llvm::StringRef id() const override { return "inner-loop-parallel"; }

  std::vector<ParamDecl> params() const override {
    return {{"lanes", {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}}, {"order", {0, 1}}};
  }
  // Folds end in shuffles: their terms are summed in another order.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = cooperativeFit(Kernel, /*AtomicTrees=*/true); !F)
      return F.offer();
    if (Kernel.Features.Loops.empty())
      return Offer::no("the kernel has no loop to spread over lanes");
    // Loops whose accesses are a row apart between threads want lanes along
    // the loop (side by side); loops that read along the thread index want
    // neighbouring outputs on neighbouring lanes.
    bool Strided = false, Coalesced = false;
    for (const frontend::MemoryAccess &A : Kernel.Features.Accesses) {
      if (A.Loop < 0 || !A.Read)
        continue;
      Strided |= A.Pattern == frontend::AccessPattern::Strided;
      Coalesced |= A.Pattern == frontend::AccessPattern::Coalesced;
    }
    std::vector<ParamSet> Rows = {{{"lanes", 32}, {"order", 0}},
                                  {{"lanes", 256}, {"order", 0}},
                                  {{"lanes", 8}, {"order", 0}}};
    std::vector<ParamSet> Columns = {
        {{"lanes", 4}, {"order", 1}}, {{"lanes", 8}, {"order", 1}}, {{"lanes", 16}, {"order", 1}}};
    std::vector<ParamSet> Space = Strided || !Coalesced ? Rows : Columns;
    for (const ParamSet &P : Strided || !Coalesced ? Columns : Rows)
      Space.push_back(P);
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Lanes = Params.at("lanes"), Order = Params.at("order");
    if (Fit F = cooperativeFit(In.Kernel, /*AtomicTrees=*/true); !F)
      return llvm::createStringError(F.whyNot());
    LaneGroup Group;
    Group.TwoD = readsY(In.Kernel);
    if (Lanes <= 32) {
      Group.Shape = LaneGroup::Kind::Warp;
      Group.Lanes = static_cast<unsigned>(Lanes);
      Group.Threads = WarpBlock;
      Group.Interleaved = Order == 1;
    } else {
      if (Order != 0)
        return llvm::createStringError("a block of lanes takes order 0");
      Group.Shape = LaneGroup::Kind::Block;
      Group.Threads = static_cast<unsigned>(Lanes);
    }
    llvm::Expected<CooperativeRewrite> Out = rewriteCooperative(In, Group);
    if (!Out)
      return Out.takeError();
    return TransformOutput{
        std::move(Out->Unit), Group.launch(),
        chainSummary(Out->Steps, Group.describe() + " (" + std::to_string(Out->Loops) +
                                     " loops spread, " + std::to_string(Out->Reductions) +
                                     " reductions)")};
  }
};
} // namespace

std::unique_ptr<Transform> makeInnerLoopParallelTransform() {
  return std::make_unique<InnerLoopParallel>();
}

} // namespace kopt::transform
