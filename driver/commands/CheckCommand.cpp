// `kopt check FILE -- FLAGS`: the checks of every annotated kernel's workload
// that need no GPU (WorkloadCheck.h), for CI. The diagnostics are clang's, on
// stderr with file:line:col; stdout gets one verdict line per annotated
// kernel. Exit 1 on any error (the file does not parse, a pragma is wrong, or
// the evaluator would refuse the workload: the check builds it as eval does).
#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/pragma/WorkloadCheck.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/optimize/WorkloadFromKernel.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {

// "3 launches, 1 warning": what the workload resolves to, for the verdict.
std::string verdictOf(const frontend::KernelSummary &K) {
  frontend::WorkloadSubject Subject{K.Name,
                                    K.Params,
                                    {},
                                    frontend::workloadTemplateValues(K.Instantiations),
                                    frontend::bodyUseOf(K.Features),
                                    std::nullopt};
  if (!K.IsTemplate)
    Subject.TemplateValues.emplace();
  frontend::ResolvedWorkload W = frontend::resolveWorkload(*K.Pragma, Subject);
  size_t Warnings = llvm::count_if(W.Diagnostics, [](const frontend::PragmaDiagnostic &D) {
    return frontend::levelOf(D.Kind) == frontend::PragmaDiagLevel::Warning;
  });
  std::string Text;
  if (!K.Pragma->Launch)
    Text = "no launch (kopt optimize takes the workload from a recording: kopt record)";
  else if (W.Launches.empty())
    Text = "the launch is not resolved (a template this file does not instantiate)";
  else
    Text = "ok, " + std::to_string(W.Launches.size()) +
           (W.Launches.size() == 1 ? " launch" : " launches");
  if (Warnings > 0)
    Text += ", " + std::to_string(Warnings) + (Warnings == 1 ? " warning" : " warnings");
  return Text;
}

} // namespace

llvm::Error runCheck(const std::vector<std::string> &Args) {
  llvm::Expected<SourceKernels> Loaded = loadSourceKernels(Args, "check FILE [--] [FLAGS]");
  if (!Loaded)
    return Loaded.takeError();
  unsigned Annotated = 0, Refused = 0;
  for (const frontend::KernelSummary &K : Loaded->Kernels) {
    if (!K.Pragma)
      continue;
    ++Annotated;
    // A header's kernel is labelled with the header's line, where its pragma is.
    const std::string &Where = K.HeaderFile.empty() ? Loaded->File : K.HeaderFile;
    std::string Verdict = verdictOf(K);
    if (K.Pragma->Launch) {
      // The workload eval would run, built by the same code: what it refuses, check does.
      std::vector<std::string> Notes;
      llvm::Expected<evaluator::Workload> W = workloadFor(K, Loaded->File, &Notes);
      for (const std::string &Note : Notes)
        llvm::errs() << Where << ":" << K.Pragma->Line << ":" << K.Pragma->Column
                     << ": note: kernel '" << K.Name << "': " << Note << "\n";
      if (!W) {
        llvm::errs() << llvm::toString(W.takeError()) << "\n";
        Verdict = "the evaluator would refuse its workload (see the error above)";
        ++Refused;
      }
    }
    llvm::outs() << Where << ":" << K.Pragma->Line << ": " << K.Name << ": " << Verdict << "\n";
  }
  if (Annotated == 0)
    llvm::outs() << Loaded->File << ": no kernel has '#pragma kopt optimize'\n";
  if (Refused > 0)
    return llvm::createStringError("%s: the evaluator would refuse %u of %u annotated kernels",
                                   Loaded->File.c_str(), Refused, Annotated);
  return llvm::Error::success();
}

} // namespace kopt::driver
