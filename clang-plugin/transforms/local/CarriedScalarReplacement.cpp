// carried-scalar-replacement: a value a loop stores and reads back in its
// next iteration (analysis/CarriedStores.h: the Thomas algorithm's cp[i - 1],
// a recursive filter's y[x - 1], a running sum) is carried in a register from
// one iteration to the next, so the recurrence no longer waits on a load of
// what it has just stored. The stores stay; only the reads change:
//   for (int i = 1; i < n; i++) { ... cp[i - 1] ...; cp[i] = c / m; }   ->
//   { bool kopt_carried0 = false; float kopt_c0{};
//   for (int i = 1; i < n; i++, kopt_carried0 = true) {
//     ... (kopt_carried0 ? kopt_c0 : cp[i - 1]) ...; cp[i] = (kopt_c0 = c / m); } }
// The first iteration reads memory, as the original does. Where another
// pointer the loop writes may alias the array (no noalias clause, no
// __restrict__), the kernel first tests, from the pragma's buffer sizes, that
// their buffers do not overlap, and where they do every iteration reads
// memory as in the original. Refused where the loop synchronizes, uses
// atomics, calls the unit's device functions, passes a pointer to a call or
// reads memory through a pointer of unknown origin, or the array is written
// through another pointer in the loop. The edits stay on the lines they change.
#include "clang-plugin/analysis/CarriedStores.h"
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/BufferOverlap.h"
#include "clang-plugin/transforms/framework/MemoryAccessScan.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringExtras.h>

#include <set>

namespace kopt::transform {

namespace {

using frontend::CarriedStore;

// What one loop's rewrite needs beyond its stores: the run-time test that
// the carried arrays alias nothing the loop writes ("true" where nothing can).
struct CarriedLoop {
  const clang::ForStmt *Loop = nullptr;
  std::vector<const CarriedStore *> Stores;
  std::string Apart = "true";
};

// A call in S that is given a pointer it could write through (any pointer but
// the address of a local scalar, as sincosf(x, &s, &c) takes): the access scan
// does not see such writes.
const clang::CallExpr *passesPointer(const clang::Stmt &S) {
  const clang::CallExpr *Found = nullptr;
  forEachStmt(&S, [&](const clang::Stmt *Each) {
    const auto *Call = llvm::dyn_cast<clang::CallExpr>(Each);
    if (Found || !Call)
      return;
    for (const clang::Expr *Arg : Call->arguments()) {
      if (!Arg->getType()->isPointerType())
        continue;
      const auto *Addr = llvm::dyn_cast<clang::UnaryOperator>(Arg->IgnoreParenImpCasts());
      const clang::VarDecl *V = Addr && Addr->getOpcode() == clang::UO_AddrOf
                                    ? namedVariable(Addr->getSubExpr())
                                    : nullptr;
      if (!V || !V->hasLocalStorage() || !V->getType()->isScalarType())
        Found = Call;
    }
  });
  return Found;
}

// Why Loop's stores cannot be carried, or the test they need.
llvm::Expected<std::string> apartCondition(const UnitAST &U, const CarriedLoop &L, bool NoAlias,
                                           const BufferSizes &Sizes) {
  StmtContents Contents = inspectStmt(*L.Loop);
  if (Contents.Barrier || Contents.Atomic || Contents.UserCall || Contents.WarpIntrinsic)
    return unsupported(U, L.Loop->getBeginLoc(),
                       "the loop synchronizes, uses atomics or calls device functions");
  if (const clang::CallExpr *Call = passesPointer(*L.Loop))
    return unsupported(U, Call->getBeginLoc(),
                       "the loop passes a pointer to a call, which may write through it");
  MemoryAccesses Scan = scanMemoryAccesses(*L.Loop);
  if (Scan.Unknown)
    return unsupported(U, Scan.Unknown->getBeginLoc(),
                       "the loop accesses memory through a pointer whose origin is unknown");
  std::vector<std::string> Tests;
  std::vector<const clang::ParmVarDecl *> Tested; // Carried arrays already tested against others.
  for (const CarriedStore *S : L.Stores) {
    const auto *Target = llvm::cast<clang::ArraySubscriptExpr>(S->Store->getLHS()->IgnoreParens());
    std::optional<frontend::PointerBase> Base = frontend::resolvePointerParam(Target->getBase());
    if (!Base)
      return unsupported(U, Target->getBeginLoc(),
                         "'" + S->Array->getName() + "' does not come from a pointer parameter");
    const clang::ParmVarDecl &Param = *Base->Param;
    std::vector<const clang::ParmVarDecl *> Others;
    unsigned OwnWrites = 0;
    for (const MemoryAccess &A : Scan.All) {
      if (!A.Write)
        continue;
      if (A.Param == &Param)
        ++OwnWrites;
      else if (std::find(Others.begin(), Others.end(), A.Param) == Others.end() &&
               std::find(Tested.begin(), Tested.end(), A.Param) == Tested.end())
        Others.push_back(A.Param); // A pair already tested the other way round is not again.
    }
    if (OwnWrites != 1)
      return unsupported(U, Target->getBeginLoc(),
                         "'" + Param.getName() + "' is also written through another pointer");
    if (Others.empty() || NoAlias || Param.getType().isRestrictQualified())
      continue;
    std::optional<std::string> Bytes = bufferBytesText(Param, Sizes);
    if (!Bytes)
      return unsupported(U, Param.getLocation(),
                         "'" + Param.getName() +
                             "' may alias another pointer the loop writes (no noalias clause, not "
                             "__restrict__), and the pragma gives it no size to check against");
    llvm::Expected<std::string> Test = apartTest(U, Param, *Bytes, Others, Sizes, NoAlias);
    if (!Test)
      return Test.takeError();
    Tests.push_back(*Test);
    Tested.push_back(&Param);
  }
  return Tests.empty() ? std::string("true") : llvm::join(Tests, " && ");
}

// Rewrites one loop; Loops and Registers number the names it declares.
llvm::Error rewriteLoop(UnitAST &U, const CarriedLoop &L, unsigned &Loops, unsigned &Registers,
                        std::string &KernelPrologue) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  const std::string Index = std::to_string(Loops++);
  const std::string Carried = "kopt_carried" + Index;
  std::string Apart = "true";
  if (L.Apart != "true") {
    Apart = "kopt_apart" + Index;
    KernelPrologue += " const bool " + Apart + " = " + L.Apart + ";";
  }
  std::string Before = "{ bool " + Carried + " = false;";
  std::vector<TextEdit> Reads; // Each read as the register after the first iteration.
  std::vector<std::pair<const CarriedStore *, std::string>> Named;
  for (const CarriedStore *S : L.Stores) {
    const std::string Reg = (llvm::Twine("kopt_c") + llvm::Twine(Registers++)).str();
    Named.push_back({S, Reg});
    Before += (llvm::Twine(" ") + typeText(S->Store->getLHS()->getType().getUnqualifiedType(), U) +
               " " + Reg + "{};")
                  .str();
    for (const clang::ArraySubscriptExpr *R : S->Reads) {
      llvm::Expected<std::string> Text = exprText(U, *R);
      if (!Text)
        return Text.takeError();
      Reads.push_back({R->getSourceRange(),
                       (llvm::Twine("(") + Carried + " ? " + Reg + " : " + *Text + ")").str()});
    }
  }
  // A store's value goes to its register too; reads inside it are edited with it.
  std::vector<bool> Done(Reads.size(), false);
  for (const auto &[S, Reg] : Named) {
    const clang::Expr *Value = S->Store->getRHS();
    std::vector<TextEdit> Inner;
    for (size_t I = 0; I < Reads.size(); ++I)
      if (rangeInside(SM, Value->getSourceRange(), Reads[I].Range)) {
        Inner.push_back(Reads[I]);
        Done[I] = true;
      }
    llvm::Expected<clang::CharSourceRange> Range = fileRange(U, Value->getSourceRange());
    if (!Range)
      return Range.takeError();
    llvm::Expected<std::string> Text = editedText(U, *Range, Inner);
    if (!Text)
      return Text.takeError();
    if (U.Rewrite.ReplaceText(*Range, (llvm::Twine("(") + Reg + " = " + *Text + ")").str()))
      return unsupported(U, Value->getBeginLoc(), "cannot edit the store");
  }
  for (size_t I = 0; I < Reads.size(); ++I)
    if (!Done[I] && U.Rewrite.ReplaceText(Reads[I].Range, Reads[I].Text))
      return unsupported(U, Reads[I].Range.getBegin(), "cannot edit the read");
  llvm::Expected<clang::CharSourceRange> Inc = fileRange(U, L.Loop->getInc()->getSourceRange());
  if (!Inc)
    return Inc.takeError();
  U.Rewrite.InsertTextAfter(Inc->getEnd(), ", " + Carried + " = " + Apart);
  llvm::Expected<clang::CharSourceRange> Whole = statementRange(U, outermostLoopStmt(U, *L.Loop));
  if (!Whole)
    return Whole.takeError();
  U.Rewrite.InsertTextBefore(Whole->getBegin(), Before + " ");
  U.Rewrite.InsertTextAfter(Whole->getEnd(), " }");
  return llvm::Error::success();
}

struct Carried {
  std::vector<std::string> Values; // "cp[row + i]" for each store carried.
  std::set<unsigned> Lines;        // The loops' lines.
  bool Tested = false;             // Some loop tests for aliasing at run time.
};

llvm::Expected<Carried> rewrite(UnitAST &U, bool NoAlias, const BufferSizes &Sizes) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  std::vector<CarriedStore> Stores = frontend::findCarriedStores(U.Kernel, U.Ctx);
  std::vector<CarriedLoop> Loops;
  for (const CarriedStore &S : Stores) {
    if (Loops.empty() || Loops.back().Loop != S.Loop)
      Loops.push_back({S.Loop, {}, "true"});
    Loops.back().Stores.push_back(&S);
  }
  Carried Out;
  std::optional<llvm::Error> FirstRefusal;
  std::vector<const clang::ForStmt *> Rewritten;
  std::string KernelPrologue;
  unsigned LoopCount = 0, Registers = 0;
  for (CarriedLoop &L : Loops) {
    // A loop inside one already rewritten: their edits could overlap.
    bool Nested = false;
    for (const clang::ForStmt *R : Rewritten)
      Nested = Nested || rangeInside(SM, R->getSourceRange(), L.Loop->getSourceRange());
    if (Nested)
      continue;
    llvm::Expected<std::string> Apart = apartCondition(U, L, NoAlias, Sizes);
    if (!Apart) {
      if (!FirstRefusal)
        FirstRefusal = Apart.takeError();
      else
        llvm::consumeError(Apart.takeError());
      continue;
    }
    L.Apart = *Apart;
    if (llvm::Error E = rewriteLoop(U, L, LoopCount, Registers, KernelPrologue))
      return E;
    Rewritten.push_back(L.Loop);
    Out.Tested = Out.Tested || L.Apart != "true";
    Out.Lines.insert(U.line(L.Loop->getBeginLoc()));
    for (const CarriedStore *S : L.Stores)
      if (std::string V = U.text(S->Store->getLHS()->getSourceRange());
          std::find(Out.Values.begin(), Out.Values.end(), V) == Out.Values.end())
        Out.Values.push_back(V);
  }
  if (Rewritten.empty()) {
    if (FirstRefusal)
      return std::move(*FirstRefusal);
    return unsupported(U, U.Kernel.getLocation(),
                       "no loop reads back a value its previous iteration stored");
  }
  if (FirstRefusal)
    llvm::consumeError(std::move(*FirstRefusal));
  if (!KernelPrologue.empty()) {
    const auto *Body = llvm::cast<clang::CompoundStmt>(U.Kernel.getBody());
    U.Rewrite.InsertTextAfter(Body->getLBracLoc().getLocWithOffset(1), KernelPrologue);
  }
  return Out;
}

class CarriedScalarReplacement : public Transform {
public:
  llvm::StringRef id() const override { return "carried-scalar-replacement"; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Kernel.Features.CarriedStores == 0)
      return Offer::no("no loop reads back a value its previous iteration stored");
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    bool NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
    BufferSizes Sizes = bufferSizes(In.Kernel);
    llvm::Expected<RewrittenWith<Carried>> Made =
        rewriteUnitWith<Carried>(In, [&](UnitAST &U) { return rewrite(U, NoAlias, Sizes); });
    if (!Made)
      return Made.takeError();
    std::vector<std::string> Lines;
    for (unsigned Line : Made->Found.Lines)
      Lines.push_back(std::to_string(Line));
    return TransformOutput{
        std::move(Made->UnitText), std::nullopt,
        "carried " + llvm::join(Made->Found.Values, ", ") +
            " in registers from one iteration to the next (loops at line " +
            llvm::join(Lines, ", ") + ")" +
            (Made->Found.Tested ? "; the kernel checks at run time that no other buffer the loop "
                                  "writes overlaps them"
                                : "")};
  }
};
} // namespace

std::unique_ptr<Transform> makeCarriedScalarReplacementTransform() {
  return std::make_unique<CarriedScalarReplacement>();
}

} // namespace kopt::transform
