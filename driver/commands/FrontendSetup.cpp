#include "driver/commands/FrontendSetup.h"

#include "driver/nvcc/NvccCommandLine.h"
#include "driver/nvcc/NvccDeviceFlags.h"
#include "driver/nvcc/NvccLocator.h"
#include "support/InstallLayout.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace kopt::driver {

namespace {
// The toolkit root that the real nvcc belongs to (<root>/bin/nvcc).
std::string cudaRootFor(const std::string &Nvcc) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Nvcc, Real))
    Real = Nvcc;
  return std::string(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real)));
}

// The architecture to parse for (see frontendSetupFor); none given (or a
// command line nvcc would reject) keeps the setup's default.
std::optional<std::string> parseArch(const std::vector<std::string> &NvccFlags,
                                     std::string *ArchNote) {
  llvm::Expected<NvccCommandLine> Cmd = parseExpandedNvccFlags(NvccFlags);
  if (!Cmd) {
    llvm::consumeError(Cmd.takeError());
    return std::nullopt;
  }
  std::vector<std::string> Archs = Cmd->targetArchitectures();
  if (Archs.empty())
    return std::nullopt;
  for (const std::string &Arch : Archs)
    if (frontend::clangKnowsGpuArch(Arch))
      return Arch;
  if (ArchNote)
    *ArchNote = "clang 19 does not know " + Archs.front() + ": kopt's front end parses as " +
                frontend::NewestClangGpuArch + " (host side only); cache keys name " +
                Archs.front();
  return frontend::NewestClangGpuArch;
}
} // namespace

llvm::Expected<frontend::CudaParseSetup> frontendSetupFor(const std::vector<std::string> &NvccFlags,
                                                          std::string *ArchNote) {
  llvm::Expected<std::string> Nvcc = locateRealNvcc(NvccSearchEnvironment::current());
  if (!Nvcc)
    return Nvcc.takeError();
  InstallLayout Layout = InstallLayout::forRunningBinary();
  frontend::CudaParseSetup Setup;
  Setup.ClangResourceDir = Layout.clangResourceDir();
  Setup.ShimIncludeDir = Layout.shimIncludeDir();
  Setup.CudaPath = cudaRootFor(*Nvcc);
  Setup.UserFlags = frontend::parseRelevantFlags(NvccFlags);
  if (std::optional<std::string> Arch = parseArch(NvccFlags, ArchNote))
    Setup.GpuArch = *Arch;
  return Setup;
}

llvm::Expected<const frontend::KernelSummary *>
findKernelNamed(const std::vector<frontend::KernelSummary> &Kernels, llvm::StringRef Name) {
  const frontend::KernelSummary *Found = nullptr;
  unsigned Unqualified = 0;
  for (const frontend::KernelSummary &K : Kernels) {
    if (K.Name == Name)
      return &K;
    if (frontend::unqualifiedName(K.Name) == Name) {
      Found = &K;
      ++Unqualified;
    }
  }
  if (!Found)
    return llvm::createStringError("no kernel named '" + Name.str() + "'");
  if (Unqualified != 1)
    return llvm::createStringError("more than one kernel is named '" + Name.str() + "'");
  return Found;
}

} // namespace kopt::driver
