#include "driver/kcc/KccMain.h"

#include "driver/Diagnostics.h"
#include "driver/kcc/CompilerResolver.h"
#include "driver/kcc/KccPipeline.h"
#include "driver/nvcc/NvccLocator.h"
#include "kopt/Version.h"
#include "support/Exec.h"
#include "support/TerminationSignals.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace kopt::driver {

namespace {
bool has(const std::vector<std::string> &Args, llvm::StringRef Flag) {
  return std::find(Args.begin(), Args.end(), Flag) != Args.end();
}

bool asksForVersion(const std::vector<std::string> &Args) {
  return has(Args, "--version") || has(Args, "-V");
}

// `kcc --kopt-version`: kopt's version, the clang it parses with, the real nvcc.
int printKoptVersion() {
  llvm::outs() << "kcc (kopt " << Version << "): nvcc that optimizes kernels marked #pragma kopt\n"
               << "front end: clang " << ClangVersion << " (in kopt)\n";
  llvm::Expected<std::string> Nvcc = locateRealNvcc(NvccSearchEnvironment::current());
  if (Nvcc)
    llvm::outs() << "real nvcc: " << *Nvcc << "\n";
  else
    llvm::outs() << "real nvcc: not found (" << llvm::toString(Nvcc.takeError()) << ")\n";
  return 0;
}
} // namespace

int kccMain(const std::vector<std::string> &Args) {
  // `kcc ... 2>&1 | head -1`: kcc's own notes may be lost, never the compile.
  signals::survivePipeClosure();
  Reporter Kcc("kcc");
  if (has(Args, "--kopt-help")) {
    printOptionsHelp(llvm::outs());
    return 0;
  }
  if (has(Args, "--kopt-version"))
    return printKoptVersion();
  llvm::Expected<SplitCommandLine> Split = splitKoptFlags(Args);
  if (!Split)
    return exitStatusOf(Kcc, Split.takeError());
  NvccSearchEnvironment Env = NvccSearchEnvironment::current();
  llvm::Expected<ResolvedCompiler> Compiler = resolveCompiler(Split->CompilerArgs, Env);
  if (!Compiler)
    return exitStatusOf(Kcc, Compiler.takeError());
  // nvcc's own answer, exactly (CMake's compiler identification reads it).
  if (!Compiler->LauncherForm && asksForVersion(Compiler->Args)) {
    std::vector<std::string> Argv = Compiler->commandLine(Compiler->Args);
    return exitStatusOf(Kcc, execReplacing(Argv.front(), Argv));
  }

  KccContext Context{std::move(*Compiler), KoptOptions(), std::move(*Split), Env.GetEnv};
  if (llvm::Error E = applyEnvironmentAndFlags(Context.Options, Context.GetEnv, Context.Split))
    return exitStatusOf(Kcc, std::move(E));
  return runKccPipeline(Context);
}

} // namespace kopt::driver
