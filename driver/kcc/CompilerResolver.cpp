#include "driver/kcc/CompilerResolver.h"

#include "driver/nvcc/NvccCommandLine.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

namespace kopt::driver {

namespace {
bool isKnownCompilerName(llvm::StringRef Name) {
  return Name == "nvcc" || Name.starts_with("clang") || Name == "g++" || Name == "c++" ||
         Name == "gcc" || Name == "cc";
}

bool isKnownLauncherName(llvm::StringRef Name) {
  return Name == "ccache" || Name == "sccache" || Name == "buildcache" || Name == "distcc" ||
         Name == "icecc";
}

// The launcher program Arg names (a path, or a name PATH has), if it does.
std::optional<std::string> launcher(llvm::StringRef Arg, const NvccSearchEnvironment &Env) {
  if (!isKnownLauncherName(llvm::sys::path::filename(Arg)))
    return std::nullopt;
  if (Arg.contains('/'))
    return isExecutableFile(Arg.str()) ? std::optional<std::string>(Arg.str()) : std::nullopt;
  std::vector<std::string> Dirs = Env.pathDirectories();
  llvm::ErrorOr<std::string> Found =
      llvm::sys::findProgramByName(Arg, std::vector<llvm::StringRef>(Dirs.begin(), Dirs.end()));
  return Found ? std::optional<std::string>(*Found) : std::nullopt;
}

// The executable that Arg names as a launched compiler, if it does.
std::optional<std::string> launchedCompiler(llvm::StringRef Arg, const NvccSearchEnvironment &Env) {
  if (Arg.empty() || Arg.starts_with("-") || Arg.starts_with("@") ||
      nvccInputKindByExtension(Arg) != NvccInputKind::Other)
    return std::nullopt;
  std::string Path = Arg.str();
  if (!Arg.contains('/')) {
    // A bare name counts only if it is a compiler's and PATH has it.
    if (!isKnownCompilerName(Arg))
      return std::nullopt;
    std::vector<std::string> Dirs = Env.pathDirectories();
    llvm::ErrorOr<std::string> Found =
        llvm::sys::findProgramByName(Arg, std::vector<llvm::StringRef>(Dirs.begin(), Dirs.end()));
    if (!Found)
      return std::nullopt;
    Path = *Found;
  }
  if (!isExecutableFile(Path))
    return std::nullopt;
  return Path;
}
} // namespace

llvm::Expected<ResolvedCompiler> resolveCompiler(const std::vector<std::string> &Args,
                                                 const NvccSearchEnvironment &Env) {
  ResolvedCompiler Result;
  size_t First = 0;
  for (; First < Args.size(); ++First) {
    std::optional<std::string> L = launcher(Args[First], Env);
    if (!L && isKnownLauncherName(llvm::sys::path::filename(Args[First])))
      // As the shell would say: a launcher that is not there fails the compile.
      return llvm::createStringError("compiler launcher '%s' not found%s", Args[First].c_str(),
                                     llvm::StringRef(Args[First]).contains('/') ? "" : " on PATH");
    if (!L)
      break;
    Result.Launchers.push_back(*L);
  }
  if (First < Args.size())
    if (std::optional<std::string> Launched = launchedCompiler(Args[First], Env)) {
      ++First;
      // `kcc kcc ...` (kcc named as its own compiler) means the nvcc form.
      if (!Env.isSelf(*Launched)) {
        Result.Path = *Launched;
        Result.LauncherForm = true;
        Result.IsNvcc = llvm::sys::path::filename(*Launched).starts_with("nvcc");
      }
    }
  if (!Result.LauncherForm) {
    llvm::Expected<std::string> Nvcc = locateRealNvcc(Env);
    if (!Nvcc)
      return Nvcc.takeError();
    Result.Path = *Nvcc;
  }
  Result.Args.assign(Args.begin() + First, Args.end());
  return Result;
}

std::vector<std::string>
ResolvedCompiler::commandLine(const std::vector<std::string> &CompilerArgs) const {
  std::vector<std::string> Argv = Launchers;
  Argv.push_back(Path);
  Argv.insert(Argv.end(), CompilerArgs.begin(), CompilerArgs.end());
  return Argv;
}

} // namespace kopt::driver
