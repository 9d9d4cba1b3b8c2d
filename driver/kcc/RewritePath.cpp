#include "driver/kcc/RewritePath.h"

#include "clang-plugin/units/HeaderInline.h"
#include "driver/Diagnostics.h"
#include "driver/kcc/CompileOutputs.h"
#include "driver/kcc/DependencyFile.h"
#include "driver/kcc/DirectMode.h"
#include "driver/kcc/Fallback.h"
#include "driver/kcc/FrontEndStage.h"
#include "driver/kcc/SourceRewrite.h"
#include "support/Exec.h"
#include "support/TemporaryFiles.h"
#include "support/TerminationSignals.h"
#include "support/TextFile.h"

#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <set>

namespace kopt::driver {

namespace {

struct Rewritten {
  std::string Original;  // As written on the command line.
  std::string Temporary; // As passed to the compiler.
  std::optional<std::string> DependencyFile;
  llvm::StringRef OriginalText; // The source, as kcc read it.
  std::string Text;             // What the compiler reads.
};

// The front end (kopt rewrite-tu) writes Source's rewritten TU to Temp. Where
// kopt is missing or cannot parse the TU, sets Failure (the caller writes the
// TU with the pragmas blanked and warns once), or fails under --kopt-strict.
// With ManifestKey, the front end records a direct-mode manifest where it may.
llvm::Expected<FrontEndOutcome>
runFrontEndOn(const KccContext &C, std::optional<std::string> &Failure, const NvccCommandLine &Cmd,
              const std::string &Source, const std::string &Temp, llvm::StringRef ManifestKey) {
  std::string Kopt = koptToolPath(C.GetEnv);
  passSecretOptions(C.Options);
  FrontEndResult R =
      runFrontEnd(Kopt, rewriteTuCommand(Kopt, C.Options, Source, Temp, Cmd.Args, ManifestKey));
  if (R.Outcome != FrontEndOutcome::Unavailable)
    return R.Outcome;
  if (C.Options.strict())
    return llvm::createStringError(R.Why);
  Failure = R.Why;
  return FrontEndOutcome::Rewritten; // With the pragmas blanked only.
}

llvm::Expected<std::string> readBack(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return llvm::createStringError(Text.getError(), "cannot read %s", Path.c_str());
  return (*Text)->getBuffer().str();
}

// The dependency files nvcc wrote, made the original's (DependencyFile.h).
void editDependencyFiles(const std::vector<Rewritten> &Files) {
  std::vector<DependencyEdit> Edits;
  std::set<std::string> DepFiles;
  for (const Rewritten &F : Files) {
    Edits.push_back({F.Temporary, F.Original, frontend::splicedHeaders(F.Text),
                     unrealLineNames(F.Original, F.OriginalText, F.Text)});
    if (F.DependencyFile)
      DepFiles.insert(*F.DependencyFile);
  }
  for (const std::string &DepFile : DepFiles)
    if (llvm::Error E = editDependencyFile(DepFile, Edits))
      Reporter("kcc").warning(llvm::toString(std::move(E)));
}

} // namespace

llvm::Expected<std::optional<int>> compileRewritten(KccContext &C, const NvccCommandLine &Cmd,
                                                    const std::vector<AnnotatedSource> &Annotated) {
  Reporter Kcc("kcc", C.Options.verbose());
  TemporaryFiles Temps;
  if (C.Options.keep())
    Temps.keep();

  std::vector<std::string> Args = Cmd.Args;
  std::vector<Rewritten> Files;
  std::optional<std::string> FrontEndFailure; // Once set, kcc only blanks the pragmas.
  std::set<std::string> SourceDirs;
  for (const auto &[Input, Text] : Annotated) {
    std::optional<std::string> Output = outputOf(Cmd, *Input);
    llvm::Expected<std::string> Temp = createRewriteFile(Output, Input->Path, Temps);
    if (!Temp)
      return Temp.takeError();
    // A direct hit writes the rewrite the front end wrote last time.
    DirectAttempt Direct;
    if (!FrontEndFailure)
      Direct = tryDirect(C, Cmd, Input->Path, Text->getBuffer(), *Temp);
    FrontEndOutcome Outcome = FrontEndOutcome::Rewritten;
    if (!Direct.Hit && !FrontEndFailure) {
      llvm::Expected<FrontEndOutcome> Ran =
          runFrontEndOn(C, FrontEndFailure, Cmd, Input->Path, *Temp, Direct.Key);
      if (!Ran)
        return Ran.takeError();
      Outcome = *Ran;
    }
    if (Outcome == FrontEndOutcome::UserError)
      return 1; // The front end diagnosed a pragma: a compile error.
    if (Outcome == FrontEndOutcome::NoPragma) {
      Kcc.verboseNote(Input->Path +
                      ": kopt's front end found no #pragma kopt: compiled as written");
      continue;
    }
    if (FrontEndFailure)
      if (llvm::Error E =
              writeTextFile(*Temp, rewriteTranslationUnit(Text->getBuffer(), Input->Path)))
        return E;
    llvm::Expected<std::string> Written = readBack(*Temp);
    if (!Written)
      return Written.takeError();
    Kcc.verboseNote("rewrote " + Input->Path + " to " + *Temp);
    Args[Input->ArgIndex] = *Temp;
    Files.push_back({Input->Path, *Temp, dependencyFileOf(Cmd, Output), Text->getBuffer(),
                     std::move(*Written)});
    llvm::StringRef SourceDir = llvm::sys::path::parent_path(Input->Path);
    SourceDirs.insert(SourceDir.empty() ? "." : SourceDir.str());
  }
  if (Files.empty())
    return std::nullopt;

  // Quoted includes resolve against the original source's directory first.
  std::vector<std::string> Front;
  for (const std::string &SourceDir : SourceDirs)
    Front.push_back("-I" + SourceDir);
  Args.insert(Args.begin(), Front.begin(), Front.end());

  // A compile that a signal ends leaves no output, also none that nvcc finished
  // after it (nvcc ignores a SIGINT sent to it alone while a tool runs): a build
  // must not take it for done.
  for (const NvccInputFile &Input : Cmd.Inputs)
    if (std::optional<std::string> Output = outputOf(Cmd, Input))
      signals::removeOnSignal(Output->c_str());

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

  if (FrontEndFailure) {
    countFallback(Fallback::FrontEnd, C.Options, C.GetEnv);
    // Where the compile failed anyway (clang could not parse the code, nor
    // could nvcc), the compiler's errors say it all.
    if (*Status == 0 || C.Options.verbose())
      Kcc.warning(*FrontEndFailure + "; compiled without kopt's variants");
  }
  if (*Status == 0)
    editDependencyFiles(Files);
  if (C.Options.keep())
    for (const Rewritten &F : Files)
      writeToStderr("kcc: kept " + F.Temporary + "\n");
  return *Status;
}

} // namespace kopt::driver
