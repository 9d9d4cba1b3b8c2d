#include "driver/KccMain.h"

#include "clang-plugin/FrontendInfo.h"
#include "driver/Diagnostics.h"
#include "driver/NvccLocator.h"
#include "kopt/Version.h"
#include "support/Exec.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace kopt::driver {

namespace {
bool asksForVersion(const std::vector<std::string> &Args) {
  return std::any_of(Args.begin(), Args.end(),
                     [](const std::string &A) { return A == "--version" || A == "-V"; });
}

// kopt's lines first, then nvcc's own --version output unchanged (CMake's
// compiler identification reads it).
int printVersion(const std::string &Nvcc) {
  llvm::outs() << "kcc (kopt " << Version << "): nvcc that optimizes kernels marked #pragma kopt\n"
               << "front end: " << frontend::clangVersion() << "\n"
               << "real nvcc: " << Nvcc << "\n";
  llvm::outs().flush();
  llvm::Expected<int> Status = runAndWait(Nvcc, {Nvcc, "--version"});
  if (!Status) {
    reportError("kcc", Status.takeError());
    return 1;
  }
  return *Status;
}
} // namespace

int kccMain(const std::vector<std::string> &Args) {
  llvm::Expected<std::string> Nvcc = locateRealNvcc(NvccSearchEnvironment::current());
  if (!Nvcc) {
    reportError("kcc", Nvcc.takeError());
    return 1;
  }
  if (asksForVersion(Args))
    return printVersion(*Nvcc);

  // Hand the whole command line to the real nvcc, unchanged.
  std::vector<std::string> Argv = {*Nvcc};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  reportError("kcc", execReplacing(*Nvcc, Argv));
  return 1;
}

} // namespace kopt::driver
