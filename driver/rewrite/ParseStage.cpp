#include "driver/rewrite/RewriteStages.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {
// The first error among clang's diagnostics, for a one-line reason (clang's
// driver says "error: ..." without a file).
std::string firstError(llvm::StringRef Diagnostics) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Diagnostics.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains("error: "))
      return L.trim().str();
  return "no error message";
}
} // namespace

llvm::Expected<std::vector<frontend::KernelSummary>> parseTu(RewriteContext &C) {
  // clang's own warnings would repeat nvcc's: shown only for a pragma's error
  // or with --kopt-verbose.
  std::string Diagnostics;
  llvm::raw_string_ostream DiagOS(Diagnostics);
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels =
      frontend::findKernelsInCode(C.Text, C.Request.Source, C.Tu.ClangArgs, DiagOS,
                                  C.Request.ManifestKey.empty() ? nullptr : &C.Accesses);
  if (!Kernels && Kernels.errorIsA<frontend::PragmaErrors>()) {
    writeToStderr(Diagnostics);
    return Kernels.takeError();
  }
  C.Log->verboseText(Diagnostics);
  if (!Kernels) {
    llvm::consumeError(Kernels.takeError());
    return llvm::createStringError("kopt's clang front end cannot parse this file: " +
                                   firstError(Diagnostics));
  }
  return Kernels;
}

} // namespace kopt::driver
