// deferred-flag-store: a flag a thread may raise again and again in a loop
// (analysis/FlagStores.h: `*changed = 1;` for every vertex a BFS labels) is
// raised in a register, and the thread stores it once, as it exits:
//   bool kopt_flag0 = false; ...
//   for (...) if (level[w] < 0) { level[w] = d + 1; kopt_flag0 = true; }
//   ... if (kopt_flag0) *changed = 1;   (at the end and before every return)
// All of a launch's stores go to one address, where they serialize; after the
// rewrite there is one a thread that found something. The kernel never reads
// the flag and every writer writes the same value, so what it holds at the
// end is the same. Where another pointer may alias the flag (no noalias
// clause, no __restrict__), the kernel first tests from the pragma's buffer
// sizes that no other buffer overlaps it, and where one does, stores as the
// original does. Refused where the kernel has lambdas or inline assembly (exits
// and stores the rewrite cannot see), reads memory through a pointer of
// unknown origin, or accesses volatile memory (a kernel that polls may be
// talking to a host that waits for the flag). The edits stay on the lines they
// change.
#include "clang-plugin/analysis/FlagStores.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/BufferOverlap.h"
#include "clang-plugin/transforms/framework/MemoryAccessScan.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringExtras.h>

#include <set>

namespace kopt::transform {

namespace {

using frontend::FlagStore;

// Why the kernel has nothing to defer: where it is not offered, and where a
// chain's earlier step deferred the flags already.
constexpr llvm::StringLiteral NoFlag =
    "no flag is raised in a loop (one value stored to one location, the location never read)";

// Why the kernel's exits or memory accesses are not all visible, or why it
// may be watched while it runs, if so.
std::optional<llvm::Error> hiddenExitsOrAccesses(const UnitAST &U, const clang::Stmt &Body) {
  std::optional<llvm::Error> Why;
  forEachStmt(&Body, [&](const clang::Stmt *S) {
    if (Why)
      return;
    if (llvm::isa<clang::LambdaExpr>(S))
      Why = unsupported(U, S->getBeginLoc(),
                        "the kernel has a lambda, whose returns and stores "
                        "the rewrite does not follow");
    else if (llvm::isa<clang::AsmStmt>(S))
      Why = unsupported(U, S->getBeginLoc(), "the kernel has inline assembly");
    else if (const auto *E = llvm::dyn_cast<clang::Expr>(S);
             E && E->getType().isVolatileQualified())
      // A kernel that polls memory may be talking to the host or another
      // kernel while it runs, which may be waiting for the flag.
      Why = unsupported(U, S->getBeginLoc(),
                        "the kernel accesses volatile memory: something may watch the flag "
                        "while it runs");
  });
  return Why;
}

// The condition that no other pointer parameter's buffer overlaps Flag's
// ("true" where nothing can alias it).
llvm::Expected<std::string> apartCondition(const UnitAST &U, const clang::ParmVarDecl &Flag,
                                           bool NoAlias, const BufferSizes &Sizes) {
  std::vector<const clang::ParmVarDecl *> Others;
  for (const clang::ParmVarDecl *P : U.Kernel.parameters())
    if (P != &Flag && P->getType()->isPointerType())
      Others.push_back(P);
  if (Others.empty() || NoAlias || Flag.getType().isRestrictQualified())
    return std::string("true");
  std::optional<std::string> Bytes = bufferBytesText(Flag, Sizes);
  if (!Bytes)
    return unsupported(U, Flag.getLocation(),
                       "'" + Flag.getName() +
                           "' may alias another pointer (no noalias clause, not __restrict__), "
                           "and the pragma gives it no size to check against");
  return apartTest(U, Flag, *Bytes, Others, Sizes, NoAlias);
}

struct Deferred {
  std::vector<std::string> Stores; // "*changed = 1 (line 27)" for each flag.
  bool Tested = false;             // Some flag is tested for aliasing at run time.
};

llvm::Expected<Deferred> rewrite(UnitAST &U, bool NoAlias, const BufferSizes &Sizes) {
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(U.Kernel.getBody());
  if (!Body)
    return unsupported(U, U.Kernel.getLocation(), "the kernel's body is not a plain block");
  std::vector<FlagStore> Flags = frontend::findFlagStores(U.Kernel, U.Ctx);
  if (Flags.empty())
    return unsupported(U, U.Kernel.getLocation(), NoFlag);
  if (std::optional<llvm::Error> Why = hiddenExitsOrAccesses(U, *Body))
    return std::move(*Why);
  if (!NoAlias)
    if (const clang::Expr *Unknown = scanMemoryAccesses(*Body).Unknown)
      return unsupported(U, Unknown->getBeginLoc(),
                         "the kernel accesses memory through a pointer whose origin is unknown");

  Deferred Out;
  std::string Prologue, AtExit;
  for (size_t I = 0; I < Flags.size(); ++I) {
    const FlagStore &F = Flags[I];
    llvm::Expected<std::string> Apart = apartCondition(U, *F.Flag, NoAlias, Sizes);
    if (!Apart)
      return Apart.takeError();
    llvm::Expected<std::string> Store = exprText(U, *F.Stores.front());
    if (!Store)
      return Store.takeError();
    const std::string Raised = "kopt_flag" + std::to_string(I);
    Prologue += " bool " + Raised + " = false;";
    std::string Raise = Raised + " = true";
    if (*Apart != "true") {
      const std::string Test = "kopt_apart" + std::to_string(I);
      Prologue += " const bool " + Test + " = " + *Apart + ";";
      Raise = "(" + Test + " ? (void)(" + Raise + ") : (void)(" + *Store + "))";
      Out.Tested = true;
    }
    for (const clang::BinaryOperator *S : F.Stores) {
      llvm::Expected<clang::CharSourceRange> Range = fileRange(U, S->getSourceRange());
      if (!Range)
        return Range.takeError();
      if (U.Rewrite.ReplaceText(*Range, Raise))
        return unsupported(U, S->getBeginLoc(), "cannot edit the store");
    }
    AtExit += " if (" + Raised + ") " + *Store + ";";
    Out.Stores.push_back((llvm::Twine(*Store) + " (line " +
                          llvm::Twine(U.line(F.Stores.front()->getBeginLoc())) + ")")
                             .str());
  }
  std::optional<llvm::Error> ReturnRefused;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    if (ReturnRefused || !llvm::isa<clang::ReturnStmt>(S))
      return;
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, *S);
    if (!Range) {
      ReturnRefused = Range.takeError();
      return;
    }
    U.Rewrite.InsertTextBefore(Range->getBegin(), "{" + AtExit + " ");
    U.Rewrite.InsertTextAfter(Range->getEnd(), " }");
  });
  if (ReturnRefused)
    return std::move(*ReturnRefused);
  // On the lines of the braces, so that the body's lines keep their numbers.
  U.Rewrite.InsertTextAfterToken(Body->getLBracLoc(), Prologue);
  U.Rewrite.InsertTextBefore(Body->getRBracLoc(), AtExit.substr(1) + " ");
  return Out;
}

class DeferredFlagStore : public Transform {
public:
  llvm::StringRef id() const override { return "deferred-flag-store"; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Kernel.Features.FlagStores == 0)
      return Offer::no(NoFlag.str());
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    bool NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
    BufferSizes Sizes = bufferSizes(In.Kernel);
    llvm::Expected<RewrittenWith<Deferred>> Made =
        rewriteUnitWith<Deferred>(In, [&](UnitAST &U) { return rewrite(U, NoAlias, Sizes); });
    if (!Made)
      return Made.takeError();
    return TransformOutput{
        std::move(Made->UnitText), std::nullopt,
        "raised " + llvm::join(Made->Found.Stores, ", ") +
            " in a register, stored once a thread as it exits" +
            (Made->Found.Tested ? "; the kernel checks at run time that no other buffer overlaps "
                                  "the flag"
                                : "")};
  }
};
} // namespace

std::unique_ptr<Transform> makeDeferredFlagStoreTransform() {
  return std::make_unique<DeferredFlagStore>();
}

} // namespace kopt::transform
