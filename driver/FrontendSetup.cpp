#include "driver/FrontendSetup.h"

#include "driver/NvccLocator.h"
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
} // namespace

llvm::Expected<frontend::CudaParseSetup> parseSetupFor(const std::vector<std::string> &Flags) {
  llvm::Expected<std::string> Nvcc = locateRealNvcc(NvccSearchEnvironment::current());
  if (!Nvcc)
    return Nvcc.takeError();
  InstallLayout Layout = InstallLayout::forRunningBinary();
  frontend::CudaParseSetup Setup;
  Setup.ClangResourceDir = Layout.clangResourceDir();
  Setup.ShimIncludeDir = Layout.shimIncludeDir();
  Setup.CudaPath = cudaRootFor(*Nvcc);
  Setup.UserFlags = frontend::parseRelevantFlags(Flags);
  return Setup;
}

llvm::Expected<const frontend::KernelSummary *>
findKernelNamed(const std::vector<frontend::KernelSummary> &Kernels, llvm::StringRef Name) {
  const frontend::KernelSummary *Found = nullptr;
  unsigned Unqualified = 0;
  for (const frontend::KernelSummary &K : Kernels) {
    if (K.Name == Name)
      return &K;
    llvm::StringRef Short = llvm::StringRef(K.Name).rsplit("::").second;
    if (Short.empty())
      Short = K.Name;
    if (Short == Name) {
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
