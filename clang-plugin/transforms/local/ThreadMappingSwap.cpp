// thread-mapping-swap: swaps the x and y roles of the thread geometry in the
// kernel (threadIdx, blockIdx, blockDim and gridDim .x <-> .y) and of the
// launch (grid and block dimensions) through the launch mapping. Every thread
// of the original launch has exactly one counterpart that computes the same
// thing; only which threads share a warp changes. For 2D kernels whose
// x-driven index is the slow one (row = blockIdx.x*blockDim.x+threadIdx.x),
// consecutive lanes then walk consecutive addresses. Warp intrinsics depend
// on which threads share a warp, so kernels with them are left alone.
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"

#include "clang-plugin/analysis/IndexAnalysis.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <set>

namespace kopt::transform {

namespace {
// The x and y members of the index builtins in a body, and the functions of
// the unit it calls.
struct GeometryScan : clang::RecursiveASTVisitor<GeometryScan> {
  bool VisitMemberExpr(clang::MemberExpr *E) { return note(E, E->getMemberLoc()); }
  bool VisitMSPropertyRefExpr(clang::MSPropertyRefExpr *E) { return note(E, E->getMemberLoc()); }
  bool VisitCallExpr(clang::CallExpr *Call) {
    if (const clang::FunctionDecl *FD = Call->getDirectCallee())
      if (const clang::FunctionDecl *Def = FD->getDefinition())
        Callees.push_back(Def);
    return true;
  }

  std::vector<std::pair<clang::SourceLocation, char>> Members; // Where, and x or y.
  std::vector<const clang::FunctionDecl *> Callees;

private:
  bool note(const clang::Expr *E, clang::SourceLocation Member) {
    if (std::optional<frontend::IndexBuiltin> B = frontend::asIndexBuiltin(E))
      if (B->Component != 'z')
        Members.emplace_back(Member, B->Component);
    return true;
  }
};

// Whether a function the kernel calls (directly or not) reads the geometry.
const clang::FunctionDecl *
calleeReadingGeometry(const std::vector<const clang::FunctionDecl *> &Callees,
                      const clang::SourceManager &SM) {
  std::set<const clang::FunctionDecl *> Seen;
  std::vector<const clang::FunctionDecl *> Work = Callees;
  while (!Work.empty()) {
    const clang::FunctionDecl *F = Work.back();
    Work.pop_back();
    if (!Seen.insert(F).second || !F->hasBody() || !SM.isInMainFile(F->getLocation()))
      continue;
    GeometryScan Scan;
    Scan.TraverseStmt(F->getBody());
    if (!Scan.Members.empty())
      return F;
    Work.insert(Work.end(), Scan.Callees.begin(), Scan.Callees.end());
  }
  return nullptr;
}

class ThreadMappingSwap : public Transform {
public:
  llvm::StringRef id() const override { return "thread-mapping-swap"; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    const frontend::KernelFeatures &F = Kernel.Features;
    if (Fit Fits = dimensionsBetween(Kernel, 2, 3); !Fits)
      return Fits.offer();
    if (!F.WarpIntrinsics.empty())
      return Offer::no("the kernel uses warp intrinsics, which depend on which threads share a "
                       "warp");
    if (Fit Fits = analysedAtInstantiation(Kernel); !Fits)
      return Fits.offer();
    // Accesses in loops weigh more: they are the hot ones.
    int Strided = 0, Coalesced = 0;
    for (const frontend::MemoryAccess &A : F.Accesses) {
      int Weight = A.Loop >= 0 ? 4 : 1;
      if (A.Pattern == frontend::AccessPattern::Strided)
        Strided += Weight;
      else if (A.Pattern == frontend::AccessPattern::Coalesced)
        Coalesced += Weight;
    }
    if (Strided <= Coalesced)
      return Offer::no("the kernel's accesses are coalesced along x as mapped already");
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    unsigned Swapped = 0;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &U) -> llvm::Error {
      const clang::Stmt *Body = U.Kernel.getBody();
      StmtContents Contents = inspectStmt(*Body);
      if (Contents.WarpIntrinsic)
        return unsupported(U, U.Kernel.getLocation(),
                           "warp intrinsics depend on which threads share a warp");
      GeometryScan Scan;
      Scan.TraverseStmt(const_cast<clang::Stmt *>(Body));
      if (const clang::FunctionDecl *F =
              calleeReadingGeometry(Scan.Callees, U.Ctx.getSourceManager()))
        return unsupported(U, F->getLocation(),
                           llvm::Twine("'") + F->getName() + "' reads the thread geometry too");
      if (Scan.Members.empty())
        return unsupported(U, U.Kernel.getLocation(), "the kernel reads no x or y geometry");
      for (const auto &[Loc, Dim] : Scan.Members) {
        if (Loc.isMacroID() || U.Rewrite.ReplaceText(Loc, 1, Dim == 'x' ? "y" : "x"))
          return unsupported(U, Loc, "the thread index comes from a macro");
        ++Swapped;
      }
      return llvm::Error::success();
    });
    if (!Text)
      return Text.takeError();
    TransformOutput Out;
    Out.UnitText = std::move(*Text);
    frontend::LaunchMapping Launch;
    Launch.Grid = {"grid_y", "grid_x", "grid_z"};
    Launch.Block = {"block_y", "block_x", "block_z"};
    Out.Launch = Launch;
    Out.Summary = "swapped the x and y thread mapping (" + std::to_string(Swapped) + " uses)";
    return Out;
  }
};
} // namespace

std::unique_ptr<Transform> makeThreadMappingSwapTransform() {
  return std::make_unique<ThreadMappingSwap>();
}

} // namespace kopt::transform
