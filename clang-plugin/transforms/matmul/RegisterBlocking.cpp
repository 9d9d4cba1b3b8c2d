// register-blocking: each thread of a matrix product computes TY x TX outputs
// in registers from operands staged BK at a time in shared memory, over
// 16 x 16 blocks (BlockedMatmul.h has the rewrite).
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/matmul/BlockedMatmul.h"
#include "clang-plugin/transforms/matmul/MatmulIdiom.h"

namespace kopt::transform {

namespace {
class RegisterBlocking : public Transform {
public:
  llvm::StringRef id() const override { return "register-blocking"; }

  std::vector<ParamDecl> params() const override {
    return {{"TY", {2, 4, 8}}, {"TX", {2, 4, 8}}, {"BK", {8, 16}}};
  }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fitsMatmul(Kernel); !F)
      return F.offer();
    return Offer::of({{{"TY", 8}, {"TX", 8}, {"BK", 8}},
                      {{"TY", 4}, {"TX", 4}, {"BK", 16}},
                      {{"TY", 4}, {"TX", 8}, {"BK", 8}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    Blocking B{16, Params.at("TY"), Params.at("TX"), Params.at("BK")};
    return applyBlockedMatmul(In, B, [&](unsigned Line) {
      return "each thread computes " + std::to_string(B.TY) + " x " + std::to_string(B.TX) +
             " outputs of the k loop at line " + std::to_string(Line) + " (" +
             std::to_string(B.extent('y')) + " x " + std::to_string(B.extent('x')) +
             " tiles, k step " + std::to_string(B.BK) +
             (B.TY * B.TX >= 64 ? "; two blocks an SM where the kernel has no launch bounds" : "") +
             ")";
    });
  }
};
} // namespace

std::unique_ptr<Transform> makeRegisterBlockingTransform() {
  return std::make_unique<RegisterBlocking>();
}

} // namespace kopt::transform
