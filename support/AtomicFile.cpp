#include "support/AtomicFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt {

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create %s: %s", Dir.str().c_str(),
                                   EC.message().c_str());
  // Same directory as the target: rename() is atomic only within one file system.
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%%%";
  int Fd = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, Fd, Temp))
    return llvm::createStringError(EC, "cannot write in %s: %s", Dir.str().c_str(),
                                   EC.message().c_str());
  std::error_code WriteError;
  {
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << Content;
    OS.close();
    WriteError = OS.error();
    OS.clear_error();
  }
  if (!WriteError)
    WriteError = llvm::sys::fs::rename(Temp, Path);
  if (WriteError) {
    llvm::sys::fs::remove(Temp);
    return llvm::createStringError(WriteError, "cannot write %s: %s", Path.str().c_str(),
                                   WriteError.message().c_str());
  }
  return llvm::Error::success();
}

} // namespace kopt
