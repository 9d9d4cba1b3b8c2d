// kopt transform: applies mechanical transforms to one kernel's unit, or lists
// their parameter spaces for it.
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/transforms/framework/LaunchCompose.h"
#include "clang-plugin/transforms/framework/ParamSetText.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/normalize/Normalization.h"
#include "driver/commands/Subcommand.h"
#include "driver/optimize/FrontendSetup.h"
#include "driver/optimize/NumericsPolicy.h"
#include "support/Spelling.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {
constexpr llvm::StringLiteral Tool = "kopt transform";
constexpr llvm::StringLiteral Usage =
    "usage: kopt transform FILE --kernel NAME (--apply ID[:k=v,...])... [-- FLAGS]\n"
    "       kopt transform --list FILE --kernel NAME [--kopt-fast-math] [-- FLAGS]\n"
    "       kopt transform --try ID[:k=v,...] [--try ...] FILE --kernel NAME [--kopt-fast-math]\n"
    "                      [-- FLAGS]";

struct TransformOptions {
  std::string File, Kernel;
  bool List = false;
  std::vector<std::string> Apply;
  std::vector<std::string> Try;   // Each applied alone: whether it applies, or why not.
  std::vector<std::string> Flags; // After '--'.
  bool FastMath = false;          // --kopt-fast-math: approximate math allowed.
};

// The value of `Name VALUE` or `Name=VALUE` at Args[I] (I then at its last
// word); empty where Args[I] is another argument.
llvm::Expected<std::optional<std::string>> optionValue(const std::vector<std::string> &Args,
                                                       size_t &I, llvm::StringRef Name) {
  llvm::StringRef A = Args[I];
  if (A.consume_front(Name) && A.consume_front("="))
    return A.str();
  if (Args[I] != Name)
    return std::nullopt;
  if (I + 1 == Args.size() || Args[I + 1] == "--")
    return llvm::createStringError("%s needs a value", Name.str().c_str());
  return Args[++I];
}

llvm::Expected<TransformOptions> parseOptions(const std::vector<std::string> &Args) {
  TransformOptions O;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--") {
      O.Flags.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    if (A == "--list") {
      O.List = true;
      continue;
    }
    if (A == "--kopt-fast-math") {
      O.FastMath = true;
      continue;
    }
    llvm::Expected<std::optional<std::string>> Kernel = optionValue(Args, I, "--kernel");
    if (!Kernel)
      return Kernel.takeError();
    if (*Kernel) {
      O.Kernel = **Kernel;
      continue;
    }
    llvm::Expected<std::optional<std::string>> Apply = optionValue(Args, I, "--apply");
    if (!Apply)
      return Apply.takeError();
    if (*Apply) {
      O.Apply.push_back(**Apply);
      continue;
    }
    llvm::Expected<std::optional<std::string>> Try = optionValue(Args, I, "--try");
    if (!Try)
      return Try.takeError();
    if (*Try) {
      O.Try.push_back(**Try);
      continue;
    }
    if (A.starts_with("-") || !O.File.empty())
      return llvm::createStringError("unexpected argument '%s' (compiler flags go after '--')",
                                     A.str().c_str());
    O.File = A.str();
  }
  if (O.File.empty() || O.Kernel.empty())
    return llvm::createStringError(O.File.empty() ? "no input file" : "no --kernel given");
  if (int(O.List) + int(!O.Apply.empty()) + int(!O.Try.empty()) != 1)
    return llvm::createStringError("give either --list or at least one --apply (or --try)");
  return O;
}

llvm::Expected<std::vector<transform::Step>> parseSteps(const std::vector<std::string> &Specs) {
  std::vector<transform::Step> Steps;
  for (const std::string &Text : Specs) {
    llvm::Expected<transform::StepSpec> Spec = transform::parseStepSpec(Text);
    if (!Spec)
      return Spec.takeError();
    const transform::Transform *T = transform::findTransform(Spec->Id);
    if (!T) {
      std::vector<llvm::StringRef> Ids;
      for (const std::unique_ptr<transform::Transform> &Known : transform::allTransforms())
        Ids.push_back(Known->id());
      return llvm::createStringError(
          "no transform named '" + Spec->Id + "'" +
          didYouMean(closestSpelling(Spec->Id, Ids, 3, /*IgnoreCase=*/true)));
    }
    Steps.push_back({T, std::move(Spec->Params)});
  }
  return Steps;
}

void printSpaces(const frontend::KernelSummary &Kernel, const transform::TransformPolicy &Policy) {
  for (const std::unique_ptr<transform::Transform> &T : transform::allTransforms()) {
    transform::Offer O = T->offer(Kernel, Policy);
    llvm::outs() << T->id() << ":";
    if (!O.offered())
      llvm::outs() << " (does not apply: " << O.whyNot() << ")";
    for (size_t I = 0; I < O.points().size(); ++I) {
      std::string Point = transform::formatParamSet(O.points()[I]);
      llvm::outs() << (I ? " | " : " ") << (Point.empty() ? "(no parameters)" : Point);
    }
    llvm::outs() << "\n";
  }
}

// Each --try step applied alone to the unit (parsed once), with the first point
// of the transform's offer where it has one, else with the parameters the spec
// gives, the rest completed with their first values (so that a transform that
// does not fit still says why): "ID: applies: what it did", "ID: refuses: why",
// or "ID: unoffered: what it did (not offered: why)" where it applies but is
// not offered the kernel (the search never tries it there), one line each.
void printTries(const frontend::KernelSummary &Unit, const std::vector<std::string> &ClangArgs,
                const transform::TransformPolicy &Policy, const std::vector<std::string> &Specs) {
  transform::ChainResult Original{Unit.Unit.Text, std::nullopt, {}, Unit.Pragma};
  for (const std::string &Spec : Specs) {
    llvm::StringRef Id = llvm::StringRef(Spec).split(':').first;
    llvm::Expected<std::vector<transform::Step>> Step = parseSteps({Spec});
    std::optional<transform::Offer> O;
    if (Step) {
      transform::Step &First = Step->front();
      O = First.T->offer(Unit, Policy);
      First.Params =
          O->offered() ? O->points().front() : First.T->completeParams(std::move(First.Params));
    }
    llvm::Expected<transform::ChainResult> Made =
        Step ? transform::applyStep(Unit, Original, ClangArgs, Step->front())
             : llvm::Expected<transform::ChainResult>(Step.takeError());
    llvm::outs() << Id << ": ";
    if (Made && O->offered())
      llvm::outs() << "applies: " << Made->Summaries.back() << "\n";
    else if (Made)
      llvm::outs() << "unoffered: " << Made->Summaries.back() << " (not offered: " << O->whyNot()
                   << ")\n";
    else
      llvm::outs() << "refuses: " << llvm::toString(Made.takeError()) << "\n";
  }
}

llvm::Error run(const TransformOptions &O) {
  if (!llvm::sys::fs::exists(O.File))
    return llvm::createStringError("no such file: " + O.File);
  llvm::Expected<std::vector<transform::Step>> Steps = parseSteps(O.Apply);
  if (!Steps)
    return Steps.takeError();
  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(O.Flags);
  if (!Setup)
    return Setup.takeError();
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels =
      frontend::findKernels(O.File, *Setup);
  if (!Kernels)
    return Kernels.takeError();
  llvm::Expected<const frontend::KernelSummary *> Kernel = findKernelNamed(*Kernels, O.Kernel);
  if (!Kernel)
    return Kernel.takeError();
  std::vector<std::string> ClangArgs = Setup->clangArgs();
  // The unit as the search starts from it (Normalization.h's chainStart).
  frontend::KernelSummary Start = **Kernel;
  std::vector<std::string> StartSteps;
  Start.Unit.Text = transform::chainStart(**Kernel, ClangArgs, &StartSteps);
  for (const std::string &Line : StartSteps)
    llvm::errs() << Tool << ": " << Line << "\n";

  if (O.List || !O.Try.empty()) {
    // The space as the transforms see the unit (what --apply would transform).
    llvm::Expected<frontend::KernelSummary> Unit =
        transform::summarizeUnit(Start.Unit.Text, Start.Name, ClangArgs, Start.Pragma,
                                 transform::analysedInstantiation(Start));
    if (!Unit)
      return Unit.takeError();
    transform::TransformPolicy Policy = numericsPolicy(*Unit, O.FastMath, O.Flags);
    if (O.List)
      printSpaces(*Unit, Policy);
    else
      printTries(*Unit, ClangArgs, Policy, O.Try);
    return llvm::Error::success();
  }
  llvm::Expected<transform::ChainResult> Result = transform::applyChain(Start, ClangArgs, *Steps);
  if (!Result)
    return Result.takeError();
  for (const std::string &Line : Result->Summaries)
    llvm::errs() << Tool << ": " << Line << "\n";
  llvm::outs() << Result->UnitText;
  if (Result->Launch)
    llvm::outs() << "// launch: " << transform::formatLaunch(*Result->Launch) << "\n";
  return llvm::Error::success();
}
} // namespace

llvm::Error runTransform(const std::vector<std::string> &Args) {
  llvm::Expected<TransformOptions> Options = parseOptions(Args);
  if (!Options) // The usage on the lines after the error.
    return llvm::createStringError(llvm::toString(Options.takeError()) + "\n" + Usage);
  return run(*Options);
}

} // namespace kopt::driver
