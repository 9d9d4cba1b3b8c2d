// atomic-aggregation: every thread adding into one global location with
// atomicAdd (a dot product, a sum, a count) serializes on that location's
// atomics. Each thread adds into a register instead, and at the kernel's end
// a warp folds its 32 registers by shuffles and one lane adds the total:
//   atomicAdd(c, a[i] * b[i]);   ->   kopt_part += (float)(a[i] * b[i]);
//   ...end: kopt_part += __shfl_xor_sync(..., o) for o = 16..1;
//           lane 0: atomicAdd(c, kopt_part)
// The sum is the same sum in another order (float results move within
// rounding; the verification's tolerance decides), integers are exact.
//
// Exact only where nothing else sees the location before the kernel ends:
// the target is one pointer parameter (or &p[0]) that the kernel uses
// nowhere but as the target of its atomicAdds, whose results are unused; no
// other atomics; no pointer that may alias it (noalias or __restrict__ where
// the kernel has other pointers). Every thread must reach the end for the
// shuffles: no return, goto, barrier, shared memory or warp intrinsic. A
// block whose thread count is no multiple of 32 (a launch the pragma does not
// describe) adds thread by thread.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"
#include "clang-plugin/transforms/parallel/LoopWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

namespace kopt::transform {

namespace {

// P where E is P or &P[0], P a pointer parameter.
const clang::ParmVarDecl *targetParam(const clang::Expr *E, const clang::ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Addr = llvm::dyn_cast<clang::UnaryOperator>(E);
      Addr && Addr->getOpcode() == clang::UO_AddrOf)
    if (const auto *Sub =
            llvm::dyn_cast<clang::ArraySubscriptExpr>(Addr->getSubExpr()->IgnoreParens())) {
      std::optional<llvm::APSInt> Index = Sub->getIdx()->getIntegerConstantExpr(Ctx);
      if (!Index || *Index != 0)
        return nullptr;
      E = Sub->getBase()->IgnoreParenImpCasts();
    }
  return llvm::dyn_cast_or_null<clang::ParmVarDecl>(namedVariable(E));
}

struct Aggregated {
  std::string Target; // As the first atomicAdd spells it.
  unsigned Calls = 0;
};

llvm::Expected<Aggregated> rewrite(UnitAST &U, bool NoAlias) {
  const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(U.Kernel.getBody());
  if (!Body)
    return unsupported(U, U.Kernel.getLocation(), "the kernel's body is not a plain block");
  std::vector<const clang::CallExpr *> Adds;
  const clang::ParmVarDecl *Target = nullptr;
  std::optional<llvm::Error> Refusal;
  auto Refuse = [&](clang::SourceLocation At, const llvm::Twine &Why) {
    if (!Refusal)
      Refusal = unsupported(U, At, Why);
  };
  forEachStmt(Body, [&](const clang::Stmt *S) {
    if (llvm::isa<clang::ReturnStmt>(S) || llvm::isa<clang::GotoStmt>(S))
      Refuse(S->getBeginLoc(), "a return or goto (every thread must reach the kernel's end)");
    const auto *Call = llvm::dyn_cast<clang::CallExpr>(S);
    if (!Call)
      return;
    std::string Name = calleeName(*Call);
    if (Name != "atomicAdd") {
      if (llvm::StringRef(Name).starts_with("atomic"))
        Refuse(Call->getBeginLoc(), "an atomic other than atomicAdd");
      return;
    }
    const clang::ParmVarDecl *P =
        Call->getNumArgs() == 2 ? targetParam(Call->getArg(0), U.Ctx) : nullptr;
    if (!P || (Target && P != Target)) {
      Refuse(Call->getBeginLoc(), "atomicAdd on something other than one pointer parameter "
                                  "(p or &p[0])");
      return;
    }
    const clang::Stmt *Parent = parentOf(Call, U.Ctx);
    if (Parent && llvm::isa<clang::Expr>(Parent)) {
      Refuse(Call->getBeginLoc(), "the atomicAdd's result is used");
      return;
    }
    Target = P;
    Adds.push_back(Call);
  });
  if (Refusal)
    return std::move(*Refusal);
  if (Adds.empty())
    return unsupported(U, U.Kernel.getLocation(), "the kernel has no atomicAdd");
  if (countRefs(Body, Target) != Adds.size())
    return unsupported(U, Target->getLocation(),
                       "'" + Target->getName() + "' is used other than as the atomicAdd target");
  if (changedVariables(Body).count(Target))
    return unsupported(U, Target->getLocation(), "'" + Target->getName() + "' is reassigned");
  bool OtherPointers = false;
  for (const clang::ParmVarDecl *P : U.Kernel.parameters())
    OtherPointers |= P != Target && P->getType()->isPointerType();
  if (OtherPointers && !NoAlias && !Target->getType().isRestrictQualified())
    return unsupported(U, Target->getLocation(),
                       "'" + Target->getName() +
                           "' may alias another pointer (no noalias clause, not __restrict__)");
  clang::QualType Element = Target->getType()->getPointeeType().getUnqualifiedType();
  if (!Element->isArithmeticType())
    return unsupported(U, Target->getLocation(), "the atomicAdd target is not a number");
  const std::string Type = typeText(Element, U);

  Aggregated A;
  llvm::Expected<std::string> TargetText = exprText(U, *Adds.front()->getArg(0));
  if (!TargetText)
    return TargetText.takeError();
  A.Target = *TargetText;
  A.Calls = Adds.size();
  for (const clang::CallExpr *Call : Adds) {
    llvm::Expected<std::string> Value = exprText(U, *Call->getArg(1));
    llvm::Expected<clang::CharSourceRange> Range = fileRange(U, Call->getSourceRange());
    if (!Value)
      return Value.takeError();
    if (!Range)
      return Range.takeError();
    U.Rewrite.ReplaceText(*Range, "(kopt_part += (" + Type + ")(" + *Value + "))");
  }
  // On the lines of the braces, so that the body's lines keep their numbers.
  U.Rewrite.InsertTextAfterToken(Body->getLBracLoc(), " " + Type + " kopt_part = 0;");
  U.Rewrite.InsertTextBefore(
      Body->getRBracLoc(), "{ // kopt atomic-aggregation: a warp's sum, then one atomicAdd\n"
                           "if (" +
                               std::string(BlockThreadsText) +
                               " % 32u == 0u) {\n"
                               "  for (int kopt_o = 16; kopt_o > 0; kopt_o >>= 1)\n"
                               "    kopt_part += __shfl_xor_sync(0xffffffffu, kopt_part, kopt_o);\n"
                               "  if ((" +
                               ThreadInBlockText + " & 31u) == 0u && kopt_part != (" + Type +
                               ")0)\n"
                               "    atomicAdd(" +
                               A.Target + ", kopt_part);\n} else if (kopt_part != (" + Type +
                               ")0) {\n  atomicAdd(" + A.Target + ", kopt_part);\n}\n}\n");
  return A;
}

class AtomicAggregation : public Transform {
public:
  llvm::StringRef id() const override { return "atomic-aggregation"; }

  // The sums are added in another order.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = callsAtomicAdd(Kernel); !F)
      return F.offer();
    if (Fit F = independentThreads(Kernel); !F)
      return F.offer();
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    bool NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
    llvm::Expected<RewrittenWith<Aggregated>> Made =
        rewriteUnitWith<Aggregated>(In, [&](UnitAST &U) { return rewrite(U, NoAlias); });
    if (!Made)
      return Made.takeError();
    return TransformOutput{std::move(Made->UnitText), std::nullopt,
                           std::to_string(Made->Found.Calls) + " atomicAdd to " +
                               Made->Found.Target +
                               " summed in a register, a warp's sum added once"};
  }
};
} // namespace

std::unique_ptr<Transform> makeAtomicAggregationTransform() {
  return std::make_unique<AtomicAggregation>();
}

} // namespace kopt::transform
