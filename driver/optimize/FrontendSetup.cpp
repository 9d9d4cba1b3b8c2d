#include "driver/optimize/FrontendSetup.h"

#include "driver/nvcc/NvccCommandLine.h"
#include "driver/nvcc/NvccDeviceFlags.h"
#include "driver/nvcc/NvccLocator.h"
#include "support/InstallLayout.h"
#include "support/Spelling.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace kopt::driver {

namespace {
// The toolkit root that the real nvcc belongs to (<root>/bin/nvcc).
std::string cudaRootFor(const std::string &Nvcc) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Nvcc, Real))
    Real = Nvcc;
  return std::string(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real)));
}

// What of the compile's own command line changes the parse beyond the
// preprocessor flags: the architecture to parse for (see frontendSetupFor), -rdc,
// and the host compiler's -fopenmp. A command line nvcc would reject changes
// nothing (the setup's defaults).
void applyNvccCommandLine(const std::vector<std::string> &NvccFlags,
                          frontend::CudaParseSetup &Setup, std::string *ArchNote) {
  llvm::Expected<NvccCommandLine> Cmd = parseExpandedNvccFlags(NvccFlags);
  if (!Cmd) {
    llvm::consumeError(Cmd.takeError());
    return;
  }
  std::vector<std::string> Archs = Cmd->targetArchitectures();
  Setup.RelocatableDeviceCode = Cmd->relocatableDeviceCode();
  for (const NvccListValue &Host : Cmd->CompilerOptions)
    for (const std::string &Item : Host.Items)
      if (Item == "-fopenmp" || llvm::StringRef(Item).starts_with("-fopenmp="))
        Setup.OpenMP = true;
  if (Archs.empty())
    return;
  for (const std::string &Arch : Archs)
    if (frontend::clangKnowsGpuArch(Arch)) {
      Setup.GpuArch = Arch;
      return;
    }
  if (ArchNote)
    *ArchNote = "clang 19 does not know " + Archs.front() + ": kopt's front end parses as " +
                frontend::NewestClangGpuArch + " (host side only); cache keys name " +
                Archs.front();
  Setup.GpuArch = frontend::NewestClangGpuArch;
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
  Setup.FallbackIncludeDir = Layout.fallbackIncludeDir();
  Setup.CudaPath = cudaRootFor(*Nvcc);
  Setup.UserFlags = frontend::parseRelevantFlags(NvccFlags);
  applyNvccCommandLine(NvccFlags, Setup, ArchNote);
  return Setup;
}

std::string suggestKernel(const std::vector<const frontend::KernelSummary *> &Kernels,
                          llvm::StringRef Name) {
  std::vector<std::string> Names;
  for (const frontend::KernelSummary *K : Kernels) {
    Names.push_back(K->Name);
    Names.push_back(frontend::unqualifiedName(K->Name).str());
  }
  std::vector<llvm::StringRef> Candidates(Names.begin(), Names.end());
  unsigned MaxDistance = std::max<unsigned>(2, static_cast<unsigned>(Name.size()) / 3);
  return didYouMean(closestSpelling(Name, Candidates, MaxDistance, /*IgnoreCase=*/true));
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
  if (!Found) {
    std::vector<const frontend::KernelSummary *> All;
    for (const frontend::KernelSummary &K : Kernels)
      All.push_back(&K);
    return llvm::createStringError("no kernel named '" + Name.str() + "'" +
                                   suggestKernel(All, Name));
  }
  if (Unqualified != 1)
    return llvm::createStringError("more than one kernel is named '" + Name.str() + "'");
  return Found;
}

} // namespace kopt::driver
