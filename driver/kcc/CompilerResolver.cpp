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
  if (!Args.empty())
    if (std::optional<std::string> Launched = launchedCompiler(Args.front(), Env)) {
      First = 1;
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

} // namespace kopt::driver
