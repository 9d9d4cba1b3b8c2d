#include "driver/kcc/KccPipeline.h"

#include "driver/Diagnostics.h"
#include "driver/config/KoptConfigFile.h"
#include "driver/kcc/AnnotatedIncludes.h"
#include "driver/kcc/CompileOutputs.h"
#include "driver/kcc/Fallback.h"
#include "driver/kcc/RemoteCacheCheck.h"
#include "driver/kcc/RewritePath.h"
#include "driver/nvcc/NvccCommandLine.h"
#include "support/Exec.h"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

namespace kopt::driver {

namespace {

// The fast path and every fallback: the real compiler, the command line as
// given; the reason counted.
int handOver(const KccContext &C, Fallback Reason, const llvm::Twine &Why) {
  Reporter Kcc("kcc", C.Options.verbose());
  Kcc.verboseNote("compiling unchanged: " + Why);
  countFallback(Reason, C.Options, C.GetEnv);
  std::vector<std::string> Argv = C.Compiler.commandLine(C.Compiler.Args);
  Kcc.error(execReplacing(Argv.front(), Argv));
  return 1;
}

// Whether a -D on the command line defines a macro with `_Pragma`, which a
// source could write a kopt pragma with (AnnotatedIncludes.h).
bool definesPragmaMacro(const NvccCommandLine &Cmd) {
  return llvm::any_of(Cmd.Macros, [](const NvccMacro &M) {
    return M.Define && llvm::StringRef(M.Text).contains("_Pragma");
  });
}

} // namespace

int runKccPipeline(KccContext &C) {
  Reporter Kcc("kcc", C.Options.verbose());
  if (C.Options.mode() == "off")
    return handOver(C, Fallback::ModeOff, "mode is off");
  if (!C.Compiler.IsNvcc)
    return handOver(C, Fallback::NotNvcc, C.Compiler.Path + " is not nvcc");

  NvccParseEnvironment ParseEnv = NvccParseEnvironment::current();
  llvm::Expected<NvccCommandLine> Cmd = parseNvccCommandLine(C.Compiler.Args, ParseEnv);
  if (!Cmd) // nvcc itself reports a bad command line best.
    return handOver(C, Fallback::BadCommandLine, llvm::toString(Cmd.takeError()));
  if (!compilesSources(Cmd->Mode))
    return handOver(C, Fallback::NoCompile, "this mode compiles no source");
  if (Cmd->cudaSources().empty())
    return handOver(C, Fallback::NoCompile, "no CUDA source");

  std::vector<AnnotatedSource> Annotated;
  std::vector<std::string> IncludeDirs;
  for (const NvccValue &Dir : Cmd->IncludeDirs)
    IncludeDirs.push_back(Dir.Value);
  bool MacroOnCommandLine = definesPragmaMacro(*Cmd);
  for (const NvccInputFile *Input : Cmd->cudaSources()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
        llvm::MemoryBuffer::getFile(Input->Path, /*IsText=*/true);
    if (!Text) // nvcc reports the unreadable file.
      return handOver(C, Fallback::UnreadableSource, "cannot read " + Input->Path);
    PragmaEvidence Found = scanForKoptPragmas(Input->Path, (*Text)->getBuffer(), IncludeDirs);
    if (Found.DirectiveIn && *Found.DirectiveIn != Input->Path)
      Kcc.verboseNote(Input->Path + " includes " + *Found.DirectiveIn +
                      ", which has a #pragma kopt");
    else if (!Found.DirectiveIn &&
             (Found.maybeThroughMacro() || (MacroOnCommandLine && Found.KoptWord)))
      Kcc.verboseNote(Input->Path + ": _Pragma and the word kopt: kopt's front end looks for "
                                    "a pragma written through a macro");
    else if (!Found.DirectiveIn)
      continue;
    Annotated.push_back({Input, std::move(*Text)});
  }
  if (Annotated.empty())
    return handOver(C, Fallback::NoPragma, "no #pragma kopt in the CUDA sources");

  if (std::optional<std::string> Config =
          findConfigFile(llvm::sys::path::parent_path(Annotated.front().Input->Path)))
    if (llvm::Error E = loadConfigFile(*Config, C.Options)) {
      writeToStderr(llvm::toString(std::move(E)) + "\n");
      return 1;
    }
  Kcc = Reporter("kcc", C.Options.verbose());
  Kcc.verboseNote("options:\n" + C.Options.describe());
  if (C.Options.mode() == "off")
    return handOver(C, Fallback::ModeOff, "mode is off");
  if (llvm::Error E = checkRemoteCache(C)) {
    Kcc.error(llvm::toString(std::move(E)) + " (--kopt-strict)");
    return 1;
  }

  llvm::Expected<std::optional<int>> Status = compileRewritten(C, *Cmd, Annotated);
  if (Status && *Status)
    return **Status;
  if (Status)
    return handOver(C, Fallback::NoPragma, "kopt's front end found no #pragma kopt");
  std::string Why = llvm::toString(Status.takeError());
  if (C.Options.strict()) {
    Kcc.error(Why + " (--kopt-strict)");
    return 1;
  }
  Kcc.warning(Why + "; compiling without kopt");
  return handOver(C, Fallback::Rewrite, Why);
}

} // namespace kopt::driver
