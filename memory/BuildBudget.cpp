#include "memory/BuildBudget.h"

#include "memory/FileLock.h"
#include "support/AtomicFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <chrono>
#include <string>

namespace kopt::memory {

namespace {
// Build names come from process names: keep them to file-name characters.
std::string fileName(llvm::StringRef Build) {
  std::string Out;
  for (char C : Build)
    Out +=
        (std::isalnum(static_cast<unsigned char>(C)) || C == '-' || C == '_' || C == '.') ? C : '_';
  return Out.substr(0, 120);
}

void removeOldLedgers(llvm::StringRef Dir) {
  std::error_code EC;
  auto Now = std::chrono::system_clock::now();
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::sys::fs::file_status Status;
    if (!llvm::sys::fs::status(It->path(), Status) &&
        Now - Status.getLastModificationTime() > std::chrono::hours(24))
      llvm::sys::fs::remove(It->path());
  }
}
} // namespace

BuildBudget::BuildBudget(std::string CacheDir, std::string Build, double TotalSeconds)
    : Dir(CacheDir + "/builds"), Path(Dir + "/" + fileName(Build)), Total(TotalSeconds) {}

double BuildBudget::spentLocked() const {
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return 0;
  try {
    return std::stod((*Text)->getBuffer().str());
  } catch (...) {
    return 0;
  }
}

double BuildBudget::remaining() const {
  auto Lock = FileLock::acquire(Path + ".lock");
  if (!Lock) {
    llvm::consumeError(Lock.takeError());
    return Total;
  }
  return std::max(0.0, Total - spentLocked());
}

llvm::Error BuildBudget::spend(double Seconds) {
  auto Lock = FileLock::acquire(Path + ".lock");
  if (!Lock)
    return Lock.takeError();
  if (!llvm::sys::fs::exists(Path))
    removeOldLedgers(Dir);
  return writeFileAtomically(Path, std::to_string(spentLocked() + Seconds) + "\n");
}

} // namespace kopt::memory
