#include "driver/nvcc/NvccLocator.h"

#include "kopt/Version.h"
#include "support/InstallLayout.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace kopt::driver {

namespace {
bool isUsableNvcc(const std::string &Candidate, const NvccSearchEnvironment &Env) {
  return isExecutableFile(Candidate) && !Env.isSelf(Candidate);
}

std::string inDir(llvm::StringRef Dir) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "nvcc");
  return std::string(Path);
}
} // namespace

bool isExecutableFile(const std::string &Path) {
  return llvm::sys::fs::can_execute(Path) && !llvm::sys::fs::is_directory(Path);
}

bool NvccSearchEnvironment::isSelf(const std::string &Path) const {
  bool Same = false;
  return !llvm::sys::fs::equivalent(Path, SelfPath, Same) && Same;
}

std::vector<std::string> NvccSearchEnvironment::pathDirectories() const {
  std::vector<std::string> Dirs;
  if (std::optional<std::string> Path = GetEnv("PATH")) {
    llvm::SmallVector<llvm::StringRef, 16> Parts;
    llvm::StringRef(*Path).split(Parts, ':', -1, /*KeepEmpty=*/false);
    Dirs.assign(Parts.begin(), Parts.end());
  }
  return Dirs;
}

NvccSearchEnvironment NvccSearchEnvironment::current() {
  NvccSearchEnvironment Env;
  Env.GetEnv = [](const char *Name) -> std::optional<std::string> {
    const char *Value = std::getenv(Name);
    if (!Value || !*Value)
      return std::nullopt;
    return std::string(Value);
  };
  Env.SelfPath = runningBinaryPath();
  Env.BuildToolkitBin = BuildCudaToolkitBinDir;
  return Env;
}

llvm::Expected<std::string> locateRealNvcc(const NvccSearchEnvironment &Env) {
  if (std::optional<std::string> Explicit = Env.GetEnv("KOPT_NVCC")) {
    if (Env.isSelf(*Explicit))
      return llvm::createStringError("KOPT_NVCC=%s names kcc itself; point it at the real nvcc",
                                     Explicit->c_str());
    if (!isExecutableFile(*Explicit))
      return llvm::createStringError("KOPT_NVCC=%s is not an executable file", Explicit->c_str());
    return *Explicit;
  }

  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> Root = Env.GetEnv(Var)) {
      llvm::SmallString<256> Bin(*Root);
      llvm::sys::path::append(Bin, "bin");
      std::string Candidate = inDir(Bin);
      if (isUsableNvcc(Candidate, Env))
        return Candidate;
    }
  if (!Env.BuildToolkitBin.empty()) {
    std::string Candidate = inDir(Env.BuildToolkitBin);
    if (isUsableNvcc(Candidate, Env))
      return Candidate;
  }

  for (const std::string &Dir : Env.pathDirectories()) {
    std::string Candidate = inDir(Dir);
    if (isUsableNvcc(Candidate, Env))
      return Candidate;
  }
  return llvm::createStringError(
      "cannot find the real nvcc: set KOPT_NVCC, or CUDA_PATH to the CUDA toolkit, "
      "or put nvcc on PATH");
}

} // namespace kopt::driver
