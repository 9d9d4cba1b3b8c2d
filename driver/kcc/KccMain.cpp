#include "driver/kcc/KccMain.h"

#include "driver/Diagnostics.h"
#include "driver/kcc/CompilerResolver.h"
#include "driver/kcc/KccPipeline.h"
#include "driver/nvcc/NvccLocator.h"
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
               << "front end: clang " << ClangVersion << " (in kopt)\n"
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
  if (std::find(Args.begin(), Args.end(), "--kopt-help") != Args.end()) {
    printOptionsHelp(llvm::outs());
    return 0;
  }
  llvm::Expected<SplitCommandLine> Split = splitKoptFlags(Args);
  if (!Split) {
    reportError("kcc", Split.takeError());
    return 1;
  }
  NvccSearchEnvironment Env = NvccSearchEnvironment::current();
  llvm::Expected<ResolvedCompiler> Compiler = resolveCompiler(Split->CompilerArgs, Env);
  if (!Compiler) {
    reportError("kcc", Compiler.takeError());
    return 1;
  }
  if (!Compiler->LauncherForm && asksForVersion(Compiler->Args))
    return printVersion(Compiler->Path);

  KccContext Context{std::move(*Compiler), KoptOptions(), std::move(*Split), Env.GetEnv};
  if (llvm::Error E = applyEnvironmentAndFlags(Context.Options, Context.GetEnv, Context.Split)) {
    reportError("kcc", std::move(E));
    return 1;
  }
  return runKccPipeline(Context);
}

} // namespace kopt::driver
