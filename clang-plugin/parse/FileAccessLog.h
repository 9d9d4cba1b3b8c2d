// What a parse saw of the file system: every path clang (and its driver) looked
// at, opened, read or listed, as FileObservations. kcc's direct mode keeps them
// in a manifest (memory/cache/DirectManifest.h) and later reuses the rewrite only if
// every path still looks the same, so a header edited, created earlier on the
// include path, or removed sends the compile back through the parse.
#pragma once

#include "support/FileObservation.h"

#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kopt::frontend {

class FileAccessLog {
public:
  FileAccessLog();
  ~FileAccessLog();
  FileAccessLog(const FileAccessLog &) = delete;
  FileAccessLog &operator=(const FileAccessLog &) = delete;

  // A file system that forwards to Base and records here. The log must outlive it.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
  wrap(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

  // One observation a path, sorted by path.
  std::vector<FileObservation> observations() const;

  // What the file system said (the recording file system calls these).
  void sawStatus(llvm::StringRef Path, const llvm::ErrorOr<llvm::vfs::Status> &Status);
  void sawContent(llvm::StringRef Path, llvm::StringRef Bytes);
  void sawListing(llvm::StringRef Dir, std::vector<std::string> Names);

private:
  std::map<std::string, FileObservation, std::less<>> Seen;
};

} // namespace kopt::frontend
