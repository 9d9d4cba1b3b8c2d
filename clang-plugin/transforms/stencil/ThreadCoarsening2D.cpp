// thread-coarsening-2d: each thread of a 2-D or 3-D kernel runs the body for F
// consecutive rows (y) or planes (z), the grid shrunk F times in that
// dimension through the launch contract; the block stays. Position g of the
// coarsened dimension becomes (blockIdx.c * blockDim.c + threadIdx.c) * F + p
// for p = 0..F-1 (kopt_row or kopt_plane), and a return ends one position,
// not the thread. A warp's accesses stay rows along x, as coalesced as
// before; what changes is that a thread has F rows of independent loads in
// flight and its neighbouring rows meet in L1. A memory-bound sweep is
// latency-bound on the H100 with one position a thread: PolyBench's 3 x 3
// convolution of 16384 x 24576 floats takes 1.69 ms as written and 1.23 ms
// with 4 rows a thread (bench/stencil/conv2d_headroom.cu, bench/RESULTS.md).
//
// The same conditions as block-shape-2d: the threads differ only by their
// positions (ThreadPositions.h), no update in place, and every global access
// bounds the coarsened position from above, so the positions a rounded-up
// grid adds do nothing.
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/stencil/StencilIdiom.h"
#include "clang-plugin/transforms/stencil/ThreadPositions.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/Support/FormatVariadic.h>

namespace kopt::transform {

namespace {
// Fewer threads than about one full H100 (132 SMs of 2048) leave SMs idle: a
// launch of 229K threads looping over z inside (Parboil's stencil) ran at
// 0.35x with 4 rows a thread. The threads the pragma's launch starts, where
// F positions a thread would leave fewer than 2^18; empty otherwise.
std::optional<int64_t> tooFewThreads(const frontend::KernelSummary &Kernel, int64_t F) {
  std::optional<int64_t> Threads = pragmaThreadsLaunched(Kernel);
  if (Threads && *Threads / F < (1 << 18))
    return Threads;
  return std::nullopt;
}

class ThreadCoarsening2D : public Transform {
public:
  llvm::StringRef id() const override { return "thread-coarsening-2d"; }

  std::vector<ParamDecl> params() const override {
    // rows or planes: one of the two.
    return {{"rows", {2, 4, 8}, 0, false, /*Group=*/1}, {"planes", {2, 4, 8}, 0, false, 1}};
  }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    const frontend::KernelFeatures &F = Kernel.Features;
    if (Fit Fits = fitsRegrouping2D(Kernel); !Fits)
      return Fits.offer();
    // Four rows did best on the convolution; planes first for 3-D, where a
    // thread's planes share the most neighbours (a z from blockIdx alone is a
    // batch: rows only).
    std::vector<ParamSet> Space = {{{"rows", 4}}, {{"rows", 2}}, {{"rows", 8}}};
    if (llvm::is_contained(F.IndexBuiltins, "threadIdx.z"))
      Space = {{{"planes", 4}}, {{"rows", 4}}, {{"planes", 2}}, {{"rows", 2}}, {{"planes", 8}}};
    std::optional<int64_t> Threads = tooFewThreads(Kernel, 2);
    llvm::erase_if(Space, [&](const ParamSet &P) {
      return tooFewThreads(Kernel, P.begin()->second).has_value();
    });
    if (Space.empty())
      return Offer::no("the launch starts " + std::to_string(Threads.value_or(0)) +
                       " threads: with two positions a thread, too few to fill the GPU");
    return Offer::of(std::move(Space));
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    const bool Planes = Params.count("planes");
    const char Dim = Planes ? 'z' : 'y';
    const int64_t Factor = Params.at(Planes ? "planes" : "rows");
    const std::string F = std::to_string(Factor);
    const std::string Position = std::string("kopt_g") + Dim;
    const std::string Part = Planes ? "kopt_plane" : "kopt_row";
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &U) -> llvm::Error {
      StmtContents C = inspectStmt(*U.Kernel.getBody());
      if (C.Barrier || C.Shared || C.WarpIntrinsic)
        return unsupported(U, U.Kernel.getLocation(),
                           "barriers, shared memory and warp intrinsics depend on the block");
      frontend::IndexPolyBuilder B(U.Ctx, U.Kernel);
      const unsigned Dims = B.threadDims();
      if ((Dims & 3) != 3)
        return unsupported(U, U.Kernel.getLocation(),
                           "not a 2-D or 3-D kernel (thread-coarsening takes 1-D ones)");
      const unsigned Coarsened = Planes ? 4u : 2u;
      if (!(Dims & Coarsened))
        return unsupported(U, U.Kernel.getLocation(), "planes are for 3-D kernels");
      // Coarsened along this dimension already: its position is a local now,
      // which a second coarsening would read in its own initializer.
      if (llvm::StringRef(U.Rewrite.getRewrittenText(U.Kernel.getBody()->getSourceRange()))
              .contains(Position))
        return unsupported(U, U.Kernel.getLocation(),
                           std::string("the kernel is coarsened along ") + Dim + " already");
      if (std::optional<int64_t> Threads = tooFewThreads(In.Kernel, Factor))
        return llvm::createStringError("the launch starts " + std::to_string(*Threads) +
                                       " threads: with " + std::to_string(Factor) +
                                       " positions a thread, too few to fill the GPU");
      addForLoopVars(U, B);
      if (llvm::Error E = checkPositionForm(U, B))
        return E;
      if (llvm::Error E = checkInPlaceUpdates(U, B))
        return E;
      if (llvm::Error E = checkBoundedAccesses(U, B, Coarsened))
        return E;
      const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(U.Kernel.getBody());
      if (!Body || Body->getLBracLoc().isMacroID() || Body->getRBracLoc().isMacroID())
        return unsupported(U, U.Kernel.getLocation(), "the kernel's body is not a plain block");
      std::vector<TextEdit> Edits;
      if (llvm::Error E = returnsAsContinues(U, Edits))
        return unsupported(U, U.Kernel.getLocation(), llvm::toString(std::move(E)));
      std::array<std::string, 3> Positions;
      Positions[Dim - 'x'] = Position;
      positionEdits(*Body, Positions, Edits);
      llvm::Expected<std::string> Inner =
          editedText(U,
                     clang::CharSourceRange::getCharRange(Body->getLBracLoc().getLocWithOffset(1),
                                                          Body->getRBracLoc()),
                     std::move(Edits));
      if (!Inner)
        return Inner.takeError();
      const std::string D(1, Dim);
      U.Rewrite.ReplaceText(
          Body->getSourceRange(),
          "{ // kopt thread-coarsening-2d: " + F + (Planes ? " planes" : " rows") +
              " a thread\n#pragma unroll\nfor (unsigned int " + Part + " = 0; " + Part + " < " + F +
              "; ++" + Part + ") {\nconst unsigned int " + Position + " = (blockIdx." + D +
              " * blockDim." + D + " + threadIdx." + D + ") * " + F + "u + " + Part + ";\n" +
              *Inner + "\n}\n}");
      return llvm::Error::success();
    });
    if (!Text)
      return Text.takeError();
    frontend::LaunchMapping Launch;
    Launch.Grid[Dim - 'x'] = llvm::formatv("(grid_{0} + {1}) / {2}", Dim, Factor - 1, F).str();
    return TransformOutput{std::move(*Text), Launch,
                           "each thread does " + F + (Planes ? " planes" : " rows")};
  }
};
} // namespace

std::unique_ptr<Transform> makeThreadCoarsening2DTransform() {
  return std::make_unique<ThreadCoarsening2D>();
}

} // namespace kopt::transform
