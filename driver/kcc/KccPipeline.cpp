#include "driver/kcc/KccPipeline.h"

#include "clang-plugin/pragma/PragmaText.h"
#include "clang-plugin/units/HeaderInline.h"
#include "driver/Diagnostics.h"
#include "driver/config/KoptConfigFile.h"
#include "driver/kcc/AnnotatedIncludes.h"
#include "driver/kcc/DependencyFile.h"
#include "driver/kcc/DirectMode.h"
#include "driver/kcc/FrontEndStage.h"
#include "driver/kcc/SourceRewrite.h"
#include "driver/nvcc/NvccCommandLine.h"
#include "support/Exec.h"
#include "support/TemporaryFiles.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <set>

namespace kopt::driver {

namespace {

void note(const KccContext &C, const llvm::Twine &Message) {
  if (C.Options.verbose())
    llvm::errs() << "kcc: note: " << Message << "\n";
}

// The fast path and every fallback: the real compiler, the command line as given.
int handOver(const KccContext &C, const llvm::Twine &Why) {
  note(C, "compiling unchanged: " + Why);
  std::vector<std::string> Argv = C.Compiler.commandLine(C.Compiler.Args);
  reportError("kcc", execReplacing(Argv.front(), Argv));
  return 1;
}

// The output a mode writes when -o is absent and kcc must name it, because the
// compiler would otherwise derive it from the rewritten file's name.
std::optional<std::string> derivedOutputExtension(NvccMode Mode) {
  switch (Mode) {
  case NvccMode::Compile:
  case NvccMode::DeviceCompile:
  case NvccMode::DeviceWholeProgram:
    return ".o";
  case NvccMode::Ptx:
    return ".ptx";
  case NvccMode::Cubin:
    return ".cubin";
  case NvccMode::Fatbin:
    return ".fatbin";
  default:
    return std::nullopt;
  }
}

bool compilesSources(NvccMode Mode) {
  return Mode == NvccMode::Link || derivedOutputExtension(Mode).has_value();
}

// Where nvcc -MD/-MMD writes its dependency file: -MF, else the output with .d.
std::optional<std::string> dependencyFileOf(const NvccCommandLine &Cmd,
                                            const std::optional<std::string> &Output) {
  if (!Cmd.DependenciesWithCompile)
    return std::nullopt;
  if (Cmd.DependencyOutput)
    return Cmd.DependencyOutput->Value;
  if (!Output)
    return std::nullopt;
  llvm::SmallString<256> Path(*Output);
  llvm::sys::path::replace_extension(Path, "d");
  return std::string(Path);
}

// A CUDA source that has a kopt pragma, with the text kcc read (once).
struct AnnotatedSource {
  const NvccInputFile *Input;
  std::unique_ptr<llvm::MemoryBuffer> Text;
};

// The user's headers inlined into the rewritten source at Path (their kernels'
// variants spliced): the dependency file must name them, as nvcc read copies.
std::vector<std::string> splicedHeadersOf(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Path);
  return Text ? frontend::splicedHeaders((*Text)->getBuffer()) : std::vector<std::string>();
}

struct Rewritten {
  std::string Original;  // As written on the command line.
  std::string Temporary; // As passed to the compiler.
};

// The front end (kopt rewrite-tu) writes Source's rewritten TU to Temp. False
// when it diagnosed a pragma (the compile fails). Where kopt is missing or
// cannot parse the TU, sets Failure (the caller writes the TU with the pragmas
// blanked and warns once), or fails under --kopt-strict. With ManifestKey, the
// front end records a direct-mode manifest where it may.
llvm::Expected<bool> runFrontEndOn(const KccContext &C, std::optional<std::string> &Failure,
                                   const NvccCommandLine &Cmd, const std::string &Source,
                                   const std::string &Temp, llvm::StringRef ManifestKey) {
  if (Failure)
    return true;
  std::string Kopt = koptToolPath(C.GetEnv);
  passSecretOptions(C.Options);
  FrontEndResult R =
      runFrontEnd(Kopt, rewriteTuCommand(Kopt, C.Options, Source, Temp, Cmd.Args, ManifestKey));
  switch (R.Outcome) {
  case FrontEndOutcome::Rewritten:
    return true;
  case FrontEndOutcome::UserError:
    return false;
  case FrontEndOutcome::Unavailable:
    break;
  }
  if (C.Options.strict())
    return llvm::createStringError(R.Why);
  Failure = R.Why;
  return true;
}

// Stage 3: returns the exit status, or an error where kopt's side failed
// before the compiler ran (the caller falls back to the original compile).
llvm::Expected<int> compileRewritten(KccContext &C, const NvccCommandLine &Cmd,
                                     const std::vector<AnnotatedSource> &Annotated) {
  std::optional<std::string> DerivedExtension = derivedOutputExtension(Cmd.Mode);
  std::optional<std::string> Output;
  if (Cmd.Output)
    Output = Cmd.Output->Value;
  if (!Output && DerivedExtension && Annotated.size() > 1)
    return llvm::createStringError("several annotated sources share one compile without -o");
  // Without -o, kcc names the output as nvcc would have (nvcc would derive it
  // from the rewritten file's name, which is the source's, but in another directory).
  bool NameOutput = !Output && DerivedExtension;
  if (NameOutput) {
    llvm::SmallString<256> Derived(llvm::sys::path::stem(Annotated.front().Input->Path));
    Derived += *DerivedExtension;
    Output = std::string(Derived);
  }

  TemporaryFiles Temps;
  if (C.Options.keep())
    Temps.keep();

  std::vector<std::string> Args = Cmd.Args;
  std::vector<Rewritten> Files;
  std::optional<std::string> FrontEndFailure; // Once set, kcc only blanks the pragmas.
  std::set<std::string> SourceDirs;
  for (const auto &[Input, Text] : Annotated) {
    llvm::Expected<std::string> Temp = createRewriteFile(Output, Input->Path, Temps);
    if (!Temp)
      return Temp.takeError();
    // A direct hit writes the rewrite the front end wrote last time.
    DirectAttempt Direct;
    if (!FrontEndFailure)
      Direct = tryDirect(C, Cmd, Input->Path, Text->getBuffer(), *Temp);
    appendDirectHitToBuildLog(C, Input->Path, Direct);
    llvm::Expected<bool> FrontEnd =
        Direct.Hit ? true : runFrontEndOn(C, FrontEndFailure, Cmd, Input->Path, *Temp, Direct.Key);
    if (!FrontEnd)
      return FrontEnd.takeError();
    if (!*FrontEnd)
      return 1; // The front end diagnosed a pragma: a compile error.
    if (FrontEndFailure) {
      std::error_code EC;
      llvm::raw_fd_ostream OS(*Temp, EC);
      OS << rewriteTranslationUnit(Text->getBuffer(), Input->Path);
      OS.close();
      if (EC || OS.has_error())
        return llvm::createStringError(EC, "cannot write %s", Temp->c_str());
    }
    note(C, "rewrote " + Input->Path + " to " + *Temp);
    Args[Input->ArgIndex] = *Temp;
    Files.push_back({Input->Path, *Temp});
    llvm::StringRef SourceDir = llvm::sys::path::parent_path(Input->Path);
    SourceDirs.insert(SourceDir.empty() ? "." : SourceDir.str());
  }

  // Quoted includes resolve against the original source's directory first.
  std::vector<std::string> Front;
  for (const std::string &SourceDir : SourceDirs)
    Front.push_back("-I" + SourceDir);
  Args.insert(Args.begin(), Front.begin(), Front.end());
  if (NameOutput) {
    Args.push_back("-o");
    Args.push_back(*Output);
  }

  // The expanded command line already holds NVCC_PREPEND_FLAGS/NVCC_APPEND_FLAGS.
  ::unsetenv("NVCC_PREPEND_FLAGS");
  ::unsetenv("NVCC_APPEND_FLAGS");
  std::vector<std::string> Argv = C.Compiler.commandLine(Args);
  // nvcc names its input in some messages ("... in the compilation of X"): the
  // user must see their own file there too.
  auto NameOriginals = [&Files](llvm::StringRef Line) {
    std::string Out = Line.str();
    for (const Rewritten &F : Files)
      for (size_t At = Out.find(F.Temporary); At != std::string::npos;
           At = Out.find(F.Temporary, At + F.Original.size()))
        Out.replace(At, F.Temporary.size(), F.Original);
    return Out;
  };
  llvm::Expected<int> Status = runAndWaitFilteringStderr(Argv.front(), Argv, NameOriginals);
  if (!Status)
    return Status.takeError();

  // Where the compile failed anyway (clang could not parse the code, nor could
  // nvcc), the compiler's errors say it all.
  if (FrontEndFailure && (*Status == 0 || C.Options.verbose()))
    llvm::errs() << "kcc: warning: " << *FrontEndFailure << "; compiled without kopt's variants\n";
  if (*Status == 0)
    if (std::optional<std::string> DepFile = dependencyFileOf(Cmd, Output))
      for (const Rewritten &F : Files)
        if (llvm::Error E = retargetDependencyFile(*DepFile, F.Temporary, F.Original,
                                                   splicedHeadersOf(F.Temporary)))
          llvm::errs() << "kcc: warning: " << llvm::toString(std::move(E)) << "\n";
  if (C.Options.keep())
    for (const Rewritten &F : Files)
      llvm::errs() << "kcc: kept " << F.Temporary << "\n";
  return *Status;
}

} // namespace

int runKccPipeline(KccContext &C) {
  if (C.Options.mode() == "off")
    return handOver(C, "mode is off");
  if (!C.Compiler.IsNvcc)
    return handOver(C, C.Compiler.Path + " is not nvcc");

  NvccParseEnvironment ParseEnv = NvccParseEnvironment::current();
  llvm::Expected<NvccCommandLine> Cmd = parseNvccCommandLine(C.Compiler.Args, ParseEnv);
  if (!Cmd) // nvcc itself reports a bad command line best.
    return handOver(C, llvm::toString(Cmd.takeError()));
  if (!compilesSources(Cmd->Mode))
    return handOver(C, "this mode compiles no source");

  std::vector<AnnotatedSource> Annotated;
  std::vector<std::string> IncludeDirs;
  for (const NvccValue &Dir : Cmd->IncludeDirs)
    IncludeDirs.push_back(Dir.Value);
  for (const NvccInputFile *Input : Cmd->cudaSources()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
        llvm::MemoryBuffer::getFile(Input->Path, /*IsText=*/true);
    if (!Text) // nvcc reports the unreadable file.
      return handOver(C, "cannot read " + Input->Path);
    if (frontend::containsKoptPragma((*Text)->getBuffer())) {
      Annotated.push_back({Input, std::move(*Text)});
    } else if (std::optional<std::string> Header =
                   annotatedInclude(Input->Path, (*Text)->getBuffer(), IncludeDirs)) {
      note(C, Input->Path + " includes " + *Header + ", which has a #pragma kopt");
      Annotated.push_back({Input, std::move(*Text)});
    }
  }
  if (Annotated.empty())
    return handOver(C, "no #pragma kopt in the CUDA sources");

  if (std::optional<std::string> Config =
          findConfigFile(llvm::sys::path::parent_path(Annotated.front().Input->Path)))
    if (llvm::Error E = loadConfigFile(*Config, C.Options)) {
      llvm::errs() << llvm::toString(std::move(E)) << "\n";
      return 1;
    }
  note(C, "options:\n" + C.Options.describe());
  if (C.Options.mode() == "off")
    return handOver(C, "mode is off");

  llvm::Expected<int> Status = compileRewritten(C, *Cmd, Annotated);
  if (Status)
    return *Status;
  std::string Why = llvm::toString(Status.takeError());
  if (C.Options.strict()) {
    reportError("kcc", Why + " (--kopt-strict)");
    return 1;
  }
  llvm::errs() << "kcc: warning: " << Why << "; compiling without kopt\n";
  return handOver(C, Why);
}

} // namespace kopt::driver
