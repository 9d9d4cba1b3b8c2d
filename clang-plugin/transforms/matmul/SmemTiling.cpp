// smem-tiling: a matrix product through T x T shared-memory tiles. Each step
// of the tiled loop, the block's threads load one T-wide slice of both
// operands (zero where k or the row/column is out of bounds), synchronize,
// and each thread runs the original body over the slice from the tiles. It is
// the blocked product of BlockedMatmul.h with one output a thread: T x T
// blocks over the same threads, k step T; the code before and after the loop
// runs as it did, the bounds checks that guarded the loop guard the loads.
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/matmul/BlockedMatmul.h"
#include "clang-plugin/transforms/matmul/MatmulIdiom.h"

namespace kopt::transform {

namespace {
class SmemTiling : public Transform {
public:
  llvm::StringRef id() const override { return "smem-tiling"; }

  std::vector<ParamDecl> params() const override { return {{"T", {16, 32}}}; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fitsMatmul(Kernel); !F)
      return F.offer();
    return Offer::of({{{"T", 16}}, {{"T", 32}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t T = Params.at("T");
    Blocking B{T, 1, 1, T};
    std::string TS = std::to_string(T);
    return applyBlockedMatmul(In, B, [&](unsigned Line) {
      return "tiled the k loop at line " + std::to_string(Line) + " through " + TS + "x" + TS +
             " shared-memory tiles";
    });
  }
};
} // namespace

std::unique_ptr<Transform> makeSmemTilingTransform() { return std::make_unique<SmemTiling>(); }

} // namespace kopt::transform
