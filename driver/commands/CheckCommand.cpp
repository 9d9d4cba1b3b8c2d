// `kopt check FILE -- FLAGS`: the checks of every annotated kernel's workload
// that need no GPU (WorkloadCheck.h), for CI. The diagnostics are clang's, on
// stderr with file:line:col; stdout gets one verdict line per annotated
// kernel. Exit 1 on any error (the file does not parse, or a pragma is wrong).
#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/pragma/WorkloadCheck.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"

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
  unsigned Annotated = 0;
  for (const frontend::KernelSummary &K : Loaded->Kernels) {
    if (!K.Pragma)
      continue;
    ++Annotated;
    llvm::outs() << Loaded->File << ":" << K.Pragma->Line << ": " << K.Name << ": " << verdictOf(K)
                 << "\n";
  }
  if (Annotated == 0)
    llvm::outs() << Loaded->File << ": no kernel has '#pragma kopt optimize'\n";
  return llvm::Error::success();
}

} // namespace kopt::driver
