// kopt transform: applies mechanical transforms to one kernel's unit, or lists
// their parameter spaces for it.
#include "agents/TransformNotes.h"
#include "clang-plugin/transforms/framework/LaunchCompose.h"
#include "clang-plugin/transforms/framework/ParamSetText.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"
#include "clang-plugin/transforms/normalize/Normalization.h"
#include "driver/Diagnostics.h"
#include "driver/commands/FrontendSetup.h"
#include "driver/commands/Subcommand.h"
#include "support/Spelling.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {
constexpr llvm::StringLiteral Tool = "kopt transform";
constexpr llvm::StringLiteral Usage =
    "usage: kopt transform FILE --kernel NAME (--apply ID[:k=v,...])... [-- FLAGS]\n"
    "       kopt transform --list FILE --kernel NAME [-- FLAGS]\n"
    "       kopt transform --try ID[:k=v,...] [--try ...] FILE --kernel NAME [-- FLAGS]";

struct TransformOptions {
  std::string File, Kernel;
  bool List = false;
  std::vector<std::string> Apply;
  std::vector<std::string> Try;   // Each applied alone: whether it applies, or why not.
  std::vector<std::string> Flags; // After '--'.
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

void printSpaces(const frontend::KernelSummary &Kernel, const std::vector<std::string> &ClangArgs) {
  for (const std::unique_ptr<transform::Transform> &T : transform::allTransforms()) {
    std::vector<transform::ParamSet> Space = T->parameterSpace(Kernel);
    llvm::outs() << T->id() << ":";
    if (Space.empty())
      llvm::outs() << " (does not apply: " << agents::whyNotOffered(*T, Kernel, ClangArgs) << ")";
    for (size_t I = 0; I < Space.size(); ++I) {
      std::string Point = transform::formatParamSet(Space[I]);
      llvm::outs() << (I ? " | " : " ") << (Point.empty() ? "(no parameters)" : Point);
    }
    llvm::outs() << "\n";
  }
}

// Each --try step applied alone to the unit (parsed once), with the first point
// of the transform's space where it has one, else with the parameters the spec
// gives (so that a transform that does not fit still says why): "ID: applies:
// what it did", "ID: refuses: why", or "ID: unoffered: what it did" where it
// applies with the given parameters but offers the kernel no point (the search
// never tries it there), one line each.
void printTries(const frontend::KernelSummary &Unit, const std::vector<std::string> &ClangArgs,
                const std::vector<std::string> &Specs) {
  transform::ChainResult Original{Unit.Unit.Text, std::nullopt, {}, Unit.Pragma};
  for (const std::string &Spec : Specs) {
    llvm::StringRef Id = llvm::StringRef(Spec).split(':').first;
    llvm::Expected<std::vector<transform::Step>> Step = parseSteps({Spec});
    bool Offered = false;
    if (Step) {
      std::vector<transform::ParamSet> Space = Step->front().T->parameterSpace(Unit);
      Offered = !Space.empty();
      if (Offered)
        Step->front().Params = Space.front();
    }
    llvm::Expected<transform::ChainResult> Made =
        Step ? transform::applyStep(Unit, Original, ClangArgs, Step->front())
             : llvm::Expected<transform::ChainResult>(Step.takeError());
    llvm::outs() << Id << ": ";
    if (Made)
      llvm::outs() << (Offered ? "applies: " : "unoffered: ") << Made->Summaries.back() << "\n";
    else
      llvm::outs() << "refuses: " << llvm::toString(Made.takeError()) << "\n";
  }
}

int run(const TransformOptions &O) {
  if (!llvm::sys::fs::exists(O.File))
    return reportError(Tool, "no such file: " + O.File), 1;
  llvm::Expected<std::vector<transform::Step>> Steps = parseSteps(O.Apply);
  if (!Steps)
    return reportError(Tool, Steps.takeError()), 1;
  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(O.Flags);
  if (!Setup)
    return reportError(Tool, Setup.takeError()), 1;
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels =
      frontend::findKernels(O.File, *Setup);
  if (!Kernels)
    return reportError(Tool, Kernels.takeError()), 1;
  llvm::Expected<const frontend::KernelSummary *> Kernel = findKernelNamed(*Kernels, O.Kernel);
  if (!Kernel)
    return reportError(Tool, Kernel.takeError()), 1;
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
        transform::summarizeUnit(Start.Unit.Text, Start.Name, ClangArgs, Start.Pragma);
    if (!Unit)
      return reportError(Tool, Unit.takeError()), 1;
    if (O.List)
      printSpaces(*Unit, ClangArgs);
    else
      printTries(*Unit, ClangArgs, O.Try);
    return 0;
  }
  llvm::Expected<transform::ChainResult> Result = transform::applyChain(Start, ClangArgs, *Steps);
  if (!Result)
    return reportError(Tool, Result.takeError()), 1;
  for (const std::string &Line : Result->Summaries)
    llvm::errs() << Tool << ": " << Line << "\n";
  llvm::outs() << Result->UnitText;
  if (Result->Launch)
    llvm::outs() << "// launch: " << transform::formatLaunch(*Result->Launch) << "\n";
  return 0;
}
} // namespace

int runTransform(const std::vector<std::string> &Args) {
  llvm::Expected<TransformOptions> Options = parseOptions(Args);
  if (!Options) {
    reportError(Tool, Options.takeError());
    llvm::errs() << Usage << "\n";
    return 1;
  }
  return run(*Options);
}

} // namespace kopt::driver
