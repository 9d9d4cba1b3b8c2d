// Where a cache directory keeps its files. The user cache and a project cache
// share the layout, so a project cache is an exported user cache:
//   <root>/entries/<2 hex>/<64 hex>.json   one entry per key
//   <root>/manifests/<2 hex>/<64 hex>.manifest  direct mode (user cache only)
//   <root>/stats/<shard>[.lock]            counters (user cache only)
//   <root>/gc.lock                         held while evicting
//   <root>/recordings/<symbol>.krec        `kopt record`'s launches (recorder/RecordingFormat.h)
//   <root>/said/<hash>                     a warning said once (support/SaidOnce.h)
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Chrono.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kopt::memory {

// A key's digest: 64 lowercase hex digits (the only names entry files have).
bool isDigest(llvm::StringRef Name);

std::string entryPath(llvm::StringRef Root, llvm::StringRef Digest);
std::string manifestPath(llvm::StringRef Root, llvm::StringRef Digest);
std::string statsDir(llvm::StringRef Root);
std::string gcLockPath(llvm::StringRef Root);
std::string recordingsDir(llvm::StringRef Root);
std::string saidDir(llvm::StringRef Root);

struct EntryFile {
  std::string Path;
  std::string Digest; // From the file name.
  uint64_t Bytes = 0;
  llvm::sys::TimePoint<> LastUse; // The file's mtime, bumped on every hit.
};

// Every entry file under Root, in no particular order (temporary files of
// writes in progress are skipped). A missing Root has none.
std::vector<EntryFile> listEntryFiles(llvm::StringRef Root);
// The same for direct-mode manifests (Digest: the manifest key's).
std::vector<EntryFile> listManifestFiles(llvm::StringRef Root);

} // namespace kopt::memory
