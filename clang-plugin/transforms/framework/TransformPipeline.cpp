#include "clang-plugin/transforms/framework/TransformPipeline.h"
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/units/InstantiationChoice.h"

#include "clang-plugin/transforms/framework/LaunchCompose.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::transform {

namespace {
frontend::ClauseExpr integerExpr(int64_t Value) {
  auto Node = std::make_shared<frontend::ExprNode>();
  Node->IntValue = Value;
  Node->Spelling = std::to_string(Value);
  return frontend::ClauseExpr{std::move(Node), std::to_string(Value)};
}
} // namespace

llvm::Expected<frontend::KernelSummary>
summarizeUnit(llvm::StringRef UnitText, llvm::StringRef Name,
              const std::vector<std::string> &ClangArgs,
              const std::optional<frontend::PragmaClauses> &Pragma,
              const std::optional<frontend::KernelInstantiation> &Instance) {
  std::string Diagnostics;
  llvm::raw_string_ostream DiagStream(Diagnostics);
  std::string Parsed = UnitText.str();
  if (Instance)
    Parsed += instantiationUse(Name, Instance->TemplateArgs);
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels =
      frontend::findKernelsInCode(Parsed, UnitFileName, ClangArgs, DiagStream,
                                  /*Accesses=*/nullptr, frontend::HeaderParse::Precompiled);
  if (!Kernels)
    return llvm::createStringError("the unit of '%s' does not parse:\n%s", Name.str().c_str(),
                                   Diagnostics.c_str());
  for (frontend::KernelSummary &K : *Kernels)
    if (K.Name == Name) {
      K.Pragma = Pragma;
      // The appended use is no launch or explicit instantiation, which is what
      // findInstantiations lists; rewriteUnit finds the instance through this.
      if (Instance && K.IsTemplate && K.Instantiations.empty())
        K.Instantiations = {*Instance};
      return std::move(K);
    }
  return llvm::createStringError("the unit has no kernel named '%s'", Name.str().c_str());
}

std::optional<frontend::KernelInstantiation>
analysedInstantiation(const frontend::KernelSummary &Original) {
  llvm::Expected<std::optional<frontend::KernelInstantiation>> Chosen =
      frontend::chosenInstantiation(Original);
  if (!Chosen) {
    llvm::consumeError(Chosen.takeError()); // The workload reports it.
    return std::nullopt;
  }
  return *Chosen;
}

frontend::PragmaClauses pragmaAfterLaunch(const frontend::PragmaClauses &Pragma,
                                          const frontend::LaunchMapping &Launch) {
  frontend::PragmaClauses Out = Pragma;
  if (!Out.Launch)
    return Out;
  static constexpr const char *Same[] = {"block_x", "block_y", "block_z"};
  std::vector<frontend::ClauseExpr> &Block = Out.Launch->Block;
  for (unsigned D = 0; D < 3; ++D) {
    const std::string &E = Launch.Block[D];
    if (E == Same[D])
      continue;
    int64_t Value = 0;
    if (llvm::StringRef(E).getAsInteger(10, Value)) {
      Out.Launch.reset(); // The new block size is not a constant we can name.
      return Out;
    }
    if (Block.size() <= D)
      Block.resize(D + 1, integerExpr(1));
    Block[D] = integerExpr(Value);
  }
  return Out;
}

llvm::Expected<ChainResult> applyStep(const frontend::KernelSummary &Current,
                                      const ChainResult &Made,
                                      const std::vector<std::string> &ClangArgs, const Step &S) {
  TransformInput In{Current, Made.UnitText, ClangArgs};
  llvm::Expected<TransformOutput> Out = S.T->apply(In, S.Params);
  if (!Out)
    return llvm::createStringError("%s: %s", S.T->id().str().c_str(),
                                   llvm::toString(Out.takeError()).c_str());
  ChainResult Result{std::move(Out->UnitText), composeLaunch(Made.Launch, Out->Launch),
                     Made.Summaries, Made.Pragma};
  Result.Summaries.push_back(S.T->id().str() + ": " + Out->Summary);
  if (Out->Launch && Result.Pragma)
    Result.Pragma = pragmaAfterLaunch(*Result.Pragma, *Out->Launch);
  return Result;
}

llvm::Expected<ChainResult> applyChain(const frontend::KernelSummary &Kernel,
                                       const std::vector<std::string> &ClangArgs,
                                       const std::vector<Step> &Steps) {
  ChainResult Result{Kernel.Unit.Text, std::nullopt, {}, Kernel.Pragma};
  std::optional<frontend::KernelInstantiation> Instance = analysedInstantiation(Kernel);
  for (const Step &S : Steps) {
    llvm::Expected<frontend::KernelSummary> Current =
        summarizeUnit(Result.UnitText, Kernel.Name, ClangArgs, Result.Pragma, Instance);
    if (!Current)
      return Current.takeError();
    llvm::Expected<ChainResult> Next = applyStep(*Current, Result, ClangArgs, S);
    if (!Next)
      return Next.takeError();
    Result = std::move(*Next);
  }
  return Result;
}

} // namespace kopt::transform
