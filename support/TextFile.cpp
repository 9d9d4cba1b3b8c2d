#include "support/TextFile.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt {

llvm::Error writeTextFile(llvm::StringRef Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  OS << Text;
  OS.close();
  if (!EC && OS.has_error()) {
    EC = OS.error();
    OS.clear_error(); // Said here: the stream must not abort on it when destroyed.
  }
  if (EC)
    return llvm::createStringError(EC, "cannot write %s: %s", Path.str().c_str(),
                                   EC.message().c_str());
  return llvm::Error::success();
}

} // namespace kopt
