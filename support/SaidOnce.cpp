#include "support/SaidOnce.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/xxhash.h>

#include <chrono>

namespace kopt {

namespace {
constexpr std::chrono::hours MarkerLife{24};

bool expired(const llvm::Twine &Path) {
  llvm::sys::fs::file_status Status;
  return !llvm::sys::fs::status(Path, Status) &&
         std::chrono::system_clock::now() - Status.getLastModificationTime() > MarkerLife;
}

void removeOldMarkers(llvm::StringRef Dir) {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (expired(It->path()))
      llvm::sys::fs::remove(It->path());
}

// Whether this call created Path; EC says why not.
bool createMarker(llvm::StringRef Path, std::error_code &EC) {
  int FD = -1;
  EC = llvm::sys::fs::openFileForWrite(Path, FD, llvm::sys::fs::CD_CreateNew);
  if (EC)
    return false;
  llvm::sys::fs::closeFile(FD);
  return true;
}
} // namespace

std::string saidMarkerName(llvm::StringRef Warning) {
  return llvm::utohexstr(llvm::xxh3_64bits(Warning), /*LowerCase=*/true);
}

bool firstToSay(llvm::StringRef Dir, llvm::StringRef Warning) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, saidMarkerName(Warning));
  if (llvm::sys::fs::create_directories(Dir))
    return true; // Unwritable: say it.
  std::error_code EC;
  if (!createMarker(Path, EC) && EC == std::errc::file_exists && expired(Path)) {
    llvm::sys::fs::remove(Path); // Said over a day ago: once more.
    createMarker(Path, EC);
  }
  if (EC)
    return EC != std::errc::file_exists; // Said by another process; else unwritable: say it.
  removeOldMarkers(Dir);
  return true;
}

} // namespace kopt
