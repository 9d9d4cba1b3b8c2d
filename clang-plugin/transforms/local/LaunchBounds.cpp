// launch-bounds: __launch_bounds__(threads of the pragma's block[, minBlocks]).
// It lets ptxas use registers for exactly that block size, and with minBlocks
// caps them so that many blocks fit on one SM.
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <algorithm>

namespace kopt::transform {

namespace {
constexpr int64_t MaxThreadsPerSM = 2048; // sm_70 to sm_90.
constexpr int64_t RegistersPerSM = 65536;

class LaunchBounds : public Transform {
public:
  llvm::StringRef id() const override { return "launch-bounds"; }

  std::vector<ParamDecl> params() const override { return {{"minBlocks", {}, /*Min=*/1}}; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    std::optional<int64_t> Threads = pragmaBlockThreads(Kernel);
    if (!Threads)
      return Offer::no("the pragma gives no constant block size");
    if (*Threads > 1024)
      return Offer::no("the pragma's block has more than 1024 threads");
    // The registers a thread may use with Min blocks an SM; 255 is no cap.
    auto Cap = [&](int64_t Min) {
      return std::min<int64_t>(255, RegistersPerSM / (*Threads * Min));
    };
    // First the caps that buy occupancy without starving a loop (128, then
    // 64: a heavy kernel, such as a register-blocked product at 130-190
    // registers, gains a second block at 128), then no cap, then tighter
    // caps, which mostly spill. A Min whose cap is no tighter than a smaller
    // Min's is the same kernel.
    std::vector<int64_t> Mins;
    for (int64_t Min = 1; Min * *Threads <= MaxThreadsPerSM && Min <= 32; Min *= 2)
      if (Min == 1 || Cap(Min) < Cap(Min / 2))
        Mins.push_back(Min);
    auto Rank = [&](int64_t Min) { return Cap(Min) >= 255 ? 1 : Cap(Min) >= 64 ? 0 : 2; };
    std::stable_sort(Mins.begin(), Mins.end(),
                     [&](int64_t A, int64_t B) { return Rank(A) < Rank(B); });
    std::vector<ParamSet> Space;
    for (int64_t Min : Mins)
      Space.push_back({{"minBlocks", Min}});
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t Min = Params.at("minBlocks");
    std::optional<int64_t> Threads = pragmaBlockThreads(In.Kernel);
    if (!Threads)
      return llvm::createStringError("the pragma gives no constant block size");
    if (*Threads > 1024 || Min * *Threads > MaxThreadsPerSM)
      return llvm::createStringError("%lld blocks of %lld threads do not fit on one SM",
                                     static_cast<long long>(Min), static_cast<long long>(*Threads));
    std::string Bounds = "__launch_bounds__(" + std::to_string(*Threads);
    if (Min > 1)
      Bounds += ", " + std::to_string(Min);
    Bounds += ")";
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      if (AST.Kernel.hasAttr<clang::CUDALaunchBoundsAttr>())
        return llvm::createStringError("the kernel already has __launch_bounds__");
      clang::SourceLocation Name = AST.Kernel.getLocation();
      if (Name.isMacroID())
        return llvm::createStringError("the kernel's name comes from a macro");
      AST.Rewrite.InsertTextBefore(Name, Bounds + " ");
      return llvm::Error::success();
    });
    if (!Text)
      return Text.takeError();
    return TransformOutput{std::move(*Text), std::nullopt, "added " + Bounds};
  }
};
} // namespace

std::unique_ptr<Transform> makeLaunchBoundsTransform() { return std::make_unique<LaunchBounds>(); }

} // namespace kopt::transform
