// split-k: for skinny products (few outputs, a long k loop each) the k range
// of each output is split over the S blocks of a thread block cluster (sm_90)
// and over the threads of each block: every output gets a cluster, its k loop
// strides from its lane by S * blockDim.x, each block reduces its lanes'
// partial sums (shuffles and shared memory), and the cluster adds the S block
// totals through distributed shared memory in rank order, so that every
// thread holds the same total (CooperativePlan.h, LaneGroup's Cluster). One
// launch, no atomics and no zeroed output: what the original does before and
// after the loop (C *= beta, C = alpha * sum + beta * C) runs once, in lane 0
// of the cluster, on the total, so an output that accumulates into itself
// gets what the original computes (up to the order of the additions).
//   blocks:  S, the blocks of a cluster (2, 4 or 8, the portable sizes).
//   threads: the threads of each block.
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/normalize/Normalization.h"
#include "clang-plugin/transforms/parallel/CooperativePlan.h"

#include <llvm/ADT/StringRef.h>

namespace kopt::transform {

namespace {
// Whether the unit is parsed for a device with clusters (sm_90 or later).
bool clusterArch(llvm::ArrayRef<std::string> ClangArgs) {
  for (llvm::StringRef Arg : ClangArgs) {
    unsigned Version = 0;
    if (Arg.consume_front("--cuda-gpu-arch=sm_") &&
        !Arg.take_while([](char C) { return C >= '0' && C <= '9'; }).getAsInteger(10, Version))
      return Version >= 90;
  }
  return false;
}

class SplitK : public Transform {
public:
  llvm::StringRef id() const override { return "split-k"; }

  std::vector<ParamDecl> params() const override {
    return {{"blocks", {2, 4, 8}}, {"threads", {64, 128, 256, 512, 1024}}};
  }
  // The k range's partial sums are added in another order.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = cooperativeFit(Kernel, /*AtomicTrees=*/true); !F)
      return F.offer();
    if (Kernel.Features.Loops.empty())
      return Offer::no("the kernel has no loop to split");
    return Offer::of({{{"blocks", 8}, {"threads", 256}},
                      {{"blocks", 4}, {"threads", 256}},
                      {{"blocks", 8}, {"threads", 128}},
                      {{"blocks", 2}, {"threads", 512}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    if (!clusterArch(In.ClangArgs))
      return llvm::createStringError("thread block clusters need sm_90 or later");
    if (Fit F = cooperativeFit(In.Kernel, /*AtomicTrees=*/true); !F)
      return llvm::createStringError(F.whyNot());
    LaneGroup Group;
    Group.Shape = LaneGroup::Kind::Cluster;
    Group.Lanes = static_cast<unsigned>(Params.at("blocks"));
    Group.Threads = static_cast<unsigned>(Params.at("threads"));
    Group.TwoD = readsY(In.Kernel);
    llvm::Expected<CooperativeRewrite> Out = rewriteCooperative(In, Group);
    if (!Out)
      return Out.takeError();
    if (Out->Reductions == 0)
      return llvm::createStringError("the kernel's loops fold nothing: no k range to split");
    return TransformOutput{
        std::move(Out->Unit), Group.launch(),
        chainSummary(Out->Steps, Group.describe() + " (" + std::to_string(Out->Loops) +
                                     " loops split, " + std::to_string(Out->Reductions) +
                                     " reductions)")};
  }
};
} // namespace

std::unique_ptr<Transform> makeSplitKTransform() { return std::make_unique<SplitK>(); }

} // namespace kopt::transform
