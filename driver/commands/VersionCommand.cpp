#include "clang-plugin/parse/FrontendInfo.h"
#include "driver/commands/Subcommand.h"
#include "driver/nvcc/NvccLocator.h"
#include "kopt/Version.h"
#include "support/InstallLayout.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

llvm::Error runVersion(const std::vector<std::string> &) {
  InstallLayout Layout = InstallLayout::forRunningBinary();
  llvm::outs() << "kopt " << Version << "\n"
               << "front end: " << frontend::clangVersion() << "\n"
               << "clang resource headers: " << Layout.clangResourceDir() << "\n";
  llvm::Expected<std::string> Nvcc = locateRealNvcc(NvccSearchEnvironment::current());
  if (Nvcc)
    llvm::outs() << "real nvcc: " << *Nvcc << "\n";
  else
    llvm::outs() << "real nvcc: not found (" << llvm::toString(Nvcc.takeError()) << ")\n";
  return llvm::Error::success();
}

} // namespace kopt::driver
