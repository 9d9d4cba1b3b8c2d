#include "test/fuzz/FrontEndAgreement.h"

#include "clang-plugin/parse/KernelFinder.h"
#include "driver/optimize/WorkloadFromKernel.h"
#include "test/fuzz/PragmaInvariants.h"
#include "test/fuzz/PragmaMutator.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::fuzz {

FrontEndOutcome checkThroughFrontEnd(llvm::StringRef Text) {
  FrontEndOutcome Out;
  std::string File = "/fuzz/case.cu";
  std::string Code =
      "#pragma kopt " + Text.str() + "\n__global__ void fuzz_kernel(" + FuzzKernelParams + ") {}\n";
  llvm::raw_string_ostream OS(Out.Diagnostics);
  auto Kernels = frontend::findKernelsInCode(Code, File, snippetClangArgs(), OS);
  if (!Kernels) {
    llvm::consumeError(Kernels.takeError());
  } else if (Kernels->size() == 1 && Kernels->front().Pragma) {
    Out.Accepted = true;
    const frontend::KernelSummary &K = Kernels->front();
    // Without launch, args and buffers the workload comes from a recording:
    // check says so, and inspect has none to show.
    if (K.Pragma->hasWorkload())
      if (llvm::Expected<evaluator::Workload> W = driver::workloadFor(K, File); !W)
        Out.Violation =
            "kopt check accepts it, kopt inspect refuses it: " + llvm::toString(W.takeError());
  }
  if (!Out.Accepted && Out.Diagnostics.find("error: ") == std::string::npos)
    Out.Violation = "refused without an error";
  bool Parser = checkPragmaText(Text).Accepted;
  if (Out.Violation.empty() && Parser != Out.Accepted)
    Out.Violation = std::string("the parser alone ") + (Parser ? "accepts" : "refuses") +
                    " what clang's front end " + (Out.Accepted ? "accepts" : "refuses");
  return Out;
}

} // namespace kopt::fuzz
