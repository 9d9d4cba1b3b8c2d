#include "clang-plugin/transforms/normalize/Normalization.h"

#include "clang-plugin/transforms/framework/TransformSupport.h"

#include <llvm/ADT/StringExtras.h>

#include <deque>
#include <mutex>

namespace kopt::transform {

llvm::ArrayRef<NormalizationPass> idiomNormalizations() {
  static const NormalizationPass Passes[] = {
      {"geometry-aliases", inlineGeometryAliases}, {"counter-scoping", scopeLoopCounters},
      {"index-inlining", inlineIndexLocals},       {"loop-invariant-hoisting", hoistLoopInvariants},
      {"scalar-replacement", promoteAccumulators},
  };
  return Passes;
}

llvm::ArrayRef<NormalizationPass> geometryNormalizations() {
  static const NormalizationPass Passes[] = {{"geometry-aliases", inlineGeometryAliases}};
  return Passes;
}

llvm::ArrayRef<NormalizationPass> cooperativeNormalizations() {
  static const NormalizationPass Passes[] = {{"tree-atomics", treeReductionsToAtomics},
                                             {"geometry-aliases", inlineGeometryAliases}};
  return Passes;
}

llvm::ArrayRef<NormalizationPass> launchNormalizations() {
  static const NormalizationPass Passes[] = {{"block-dim-constants", blockDimsForConstants},
                                             {"grid-dims-from-launch", gridDimsFromLaunch},
                                             {"launch-extent-guards", guardLaunchExtent}};
  return Passes;
}

namespace {
// A few recent results: a planner step applies one family's transforms at
// several parameter points to the same unit.
struct Memo {
  struct Entry {
    std::string Key;
    Normalized Result;
    std::string Error; // Non-empty where the unit did not parse.
  };
  std::mutex Lock;
  std::deque<Entry> Entries;
  static constexpr size_t Capacity = 16;
};

Memo &memo() {
  static Memo M;
  return M;
}

std::string memoKey(const TransformInput &In, llvm::ArrayRef<NormalizationPass> Passes,
                    const NormalizeOptions &Options) {
  std::string Key;
  for (const NormalizationPass &P : Passes)
    Key += P.Name.str() + ",";
  Key += Options.NoAlias ? "noalias\n" : "\n";
  if (Options.Block)
    for (int64_t D : *Options.Block)
      Key += std::to_string(D) + ",";
  if (Options.Grid)
    for (const frontend::ClauseExpr &E : *Options.Grid)
      Key += E.Text + ";";
  Key += In.Kernel.Name + "\n";
  for (const std::string &Arg : In.ClangArgs)
    Key += Arg + "\n";
  return Key + "\n" + In.UnitText;
}

llvm::Expected<Normalized> runPasses(const TransformInput &In,
                                     llvm::ArrayRef<NormalizationPass> Passes,
                                     const NormalizeOptions &Options) {
  Normalized Out{In.UnitText, {}, {}};
  for (const NormalizationPass &P : Passes) {
    std::string Did;
    bool Ran = false;
    TransformInput Step{In.Kernel, Out.UnitText, In.ClangArgs};
    llvm::Expected<std::string> Text = rewriteUnit(Step, [&](UnitAST &U) -> llvm::Error {
      Ran = true;
      llvm::Expected<std::string> Summary = P.Run(U, Options);
      if (!Summary)
        return Summary.takeError();
      Did = std::move(*Summary);
      return llvm::Error::success();
    });
    if (!Text && !Ran) // The unit does not parse, or has no such kernel.
      return Text.takeError();
    if (!Text) {
      // A refusal: the pass made no edit that counts; the unit stays.
      Out.Refusals.push_back(P.Name.str() + ": " + llvm::toString(Text.takeError()));
      continue;
    }
    if (Did.empty())
      continue;
    Out.UnitText = std::move(*Text);
    Out.Steps.push_back(std::move(Did));
  }
  return Out;
}
} // namespace

llvm::Expected<Normalized> normalizeUnit(const TransformInput &In,
                                         llvm::ArrayRef<NormalizationPass> Passes) {
  NormalizeOptions Options;
  Options.NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
  Options.Block = pragmaBlockDims(In.Kernel);
  if (In.Kernel.Pragma && In.Kernel.Pragma->Launch)
    Options.Grid = In.Kernel.Pragma->Launch->Grid;
  std::string Key = memoKey(In, Passes, Options);
  Memo &M = memo();
  {
    std::lock_guard<std::mutex> Guard(M.Lock);
    for (const Memo::Entry &E : M.Entries)
      if (E.Key == Key) {
        if (!E.Error.empty())
          return llvm::createStringError(E.Error);
        return E.Result;
      }
  }
  llvm::Expected<Normalized> Result = runPasses(In, Passes, Options);
  Memo::Entry Entry{Key, {}, {}};
  if (Result)
    Entry.Result = *Result;
  else
    Entry.Error = llvm::toString(Result.takeError());
  std::lock_guard<std::mutex> Guard(M.Lock);
  M.Entries.push_back(Entry);
  if (M.Entries.size() > Memo::Capacity)
    M.Entries.pop_front();
  if (!Entry.Error.empty())
    return llvm::createStringError(Entry.Error);
  return Entry.Result;
}

llvm::Expected<NormalizedRewrite> rewriteNormalized(const TransformInput &In,
                                                    llvm::ArrayRef<NormalizationPass> Passes,
                                                    UnitEdit Edit) {
  llvm::Expected<std::string> Direct = rewriteUnit(In, Edit);
  if (Direct)
    return NormalizedRewrite{std::move(*Direct), {}};
  std::string DirectWhy = llvm::toString(Direct.takeError());
  llvm::Expected<Normalized> N = normalizeUnit(In, Passes);
  if (!N) // The unit does not parse: the direct error says so already.
    return llvm::createStringError(DirectWhy);
  std::string Notes;
  for (const std::string &R : N->Refusals)
    Notes += " (not normalized: " + R + ")";
  if (N->Steps.empty())
    return llvm::createStringError(DirectWhy + Notes);
  TransformInput Normal{In.Kernel, N->UnitText, In.ClangArgs};
  llvm::Expected<std::string> Text = rewriteUnit(Normal, Edit);
  if (!Text)
    return llvm::createStringError(llvm::toString(Text.takeError()) + " (after " +
                                   llvm::join(N->Steps, ", ") + ")" + Notes);
  return NormalizedRewrite{std::move(*Text), N->Steps};
}

std::string chainStart(const frontend::KernelSummary &Kernel,
                       const std::vector<std::string> &ClangArgs, std::vector<std::string> *Steps) {
  if (!pragmaBlockDims(Kernel)) // No launch contract to read the unit under: no parse.
    return Kernel.Unit.Text;
  llvm::Expected<Normalized> N =
      normalizeUnit({Kernel, Kernel.Unit.Text, ClangArgs}, launchNormalizations());
  if (!N) { // The transforms will say why the unit does not parse.
    llvm::consumeError(N.takeError());
    return Kernel.Unit.Text;
  }
  if (Steps)
    *Steps = N->Steps;
  return N->UnitText;
}

std::string chainSummary(const std::vector<std::string> &Steps, const std::string &Core) {
  if (Steps.empty())
    return Core;
  return llvm::join(Steps, ", ") + ", then " + Core;
}

} // namespace kopt::transform
