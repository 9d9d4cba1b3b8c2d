#include "support/FileObservation.h"

#include <llvm/ADT/ScopeExit.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/BLAKE3.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace kopt {

namespace {
llvm::Error differs(const FileObservation &R, const llvm::Twine &How) {
  return llvm::createStringError(R.Path + ": " + How);
}

std::optional<std::string> currentListing(llvm::StringRef Dir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  if (EC)
    return std::nullopt;
  return listingDigest(std::move(Names));
}
} // namespace

std::string contentDigest(llvm::StringRef Bytes) {
  return llvm::toHex(llvm::BLAKE3::hash(llvm::arrayRefFromStringRef(Bytes)), /*LowerCase=*/true);
}

std::string listingDigest(std::vector<std::string> Names) {
  std::sort(Names.begin(), Names.end());
  std::string Joined;
  for (const std::string &N : Names)
    Joined += N + '\0'; // Names never hold NUL, so no two listings join alike.
  return contentDigest(Joined);
}

std::string stampOf(const llvm::sys::fs::file_status &Status) {
  auto Ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
      Status.getLastModificationTime().time_since_epoch());
  return std::to_string(Status.getSize()) + " " + std::to_string(Ns.count());
}

FileObservation observeStamp(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return {Path, FileObservation::Kind::Absent, {}, {}, {}};
  return {Path, kindOf(Status.type()), {}, {}, stampOf(Status)};
}

FileObservation::Kind kindOf(llvm::sys::fs::file_type Type) {
  switch (Type) {
  case llvm::sys::fs::file_type::status_error:
  case llvm::sys::fs::file_type::file_not_found:
    return FileObservation::Kind::Absent;
  case llvm::sys::fs::file_type::regular_file:
    return FileObservation::Kind::File;
  case llvm::sys::fs::file_type::directory_file:
    return FileObservation::Kind::Directory;
  default:
    return FileObservation::Kind::Other;
  }
}

constexpr llvm::StringLiteral KindNames[] = {"absent", "file", "directory", "other"};

llvm::StringRef kindName(FileObservation::Kind Kind) {
  return KindNames[static_cast<size_t>(Kind)];
}

std::optional<FileObservation::Kind> kindNamed(llvm::StringRef Name) {
  for (size_t I = 0; I < std::size(KindNames); ++I)
    if (KindNames[I] == Name)
      return static_cast<FileObservation::Kind>(I);
  return std::nullopt;
}

namespace {
// A file read before: open, fstat and read it, without a stat of its path first.
llvm::Error contentMatches(const FileObservation &R) {
  llvm::Expected<llvm::sys::fs::file_t> F = llvm::sys::fs::openNativeFileForRead(R.Path);
  if (!F) {
    llvm::consumeError(F.takeError());
    return differs(R, "was " + kindName(R.Type) + ", is absent");
  }
  auto Close = llvm::make_scope_exit([&] { llvm::sys::fs::closeFile(*F); });
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(*F, Status))
    return differs(R, "cannot be read: " + EC.message());
  if (FileObservation::Kind Now = kindOf(Status.type()); Now != R.Type)
    return differs(R, "was " + kindName(R.Type) + ", is " + kindName(Now));
  if (R.Stamp && stampOf(Status) != *R.Stamp)
    return differs(R, "size or modification time changed");
  // read(), not mmap(): for a few hundred small headers, mapping and unmapping
  // each costs more than copying it.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Bytes =
      llvm::MemoryBuffer::getOpenFile(*F, R.Path, Status.getSize(),
                                      /*RequiresNullTerminator=*/false, /*IsVolatile=*/true);
  if (!Bytes)
    return differs(R, "cannot be read: " + Bytes.getError().message());
  if (contentDigest((*Bytes)->getBuffer()) != *R.Content)
    return differs(R, "content changed");
  return llvm::Error::success();
}
} // namespace

llvm::Error matchesNow(const FileObservation &R) {
  if (R.Content)
    return contentMatches(R);
  llvm::sys::fs::file_status Status;
  FileObservation::Kind Now = FileObservation::Kind::Absent;
  if (!llvm::sys::fs::status(R.Path, Status))
    Now = kindOf(Status.type());
  if (Now != R.Type)
    return differs(R, "was " + kindName(R.Type) + ", is " + kindName(Now));
  if (R.Stamp && stampOf(Status) != *R.Stamp)
    return differs(R, "size or modification time changed");
  if (R.Listing && currentListing(R.Path) != R.Listing)
    return differs(R, "directory listing changed");
  return llvm::Error::success();
}

} // namespace kopt
