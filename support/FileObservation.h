// How a path looked to a process that read it (kcc's direct mode records what
// kopt's parse and cache lookups saw, and later checks that nothing changed):
// its kind and, where it was read, listed or only stamped, a digest of its
// bytes, of its directory listing, or its size and modification time.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt {

struct FileObservation {
  enum class Kind { Absent, File, Directory, Other };
  std::string Path; // As the process named it (relative to its working directory).
  Kind Type = Kind::Absent;
  std::optional<std::string> Content; // contentDigest() of the bytes read.
  std::optional<std::string> Listing; // listingDigest() of the directory's names.
  std::optional<std::string> Stamp;   // stampOf(): for large binaries, not hashed.
};

// BLAKE3 (fast enough to rehash every header of a CUDA TU on each compile), hex.
std::string contentDigest(llvm::StringRef Bytes);
// The digest of a directory's entry names, in any order.
std::string listingDigest(std::vector<std::string> Names);
// "<size> <mtime in ns>".
std::string stampOf(const llvm::sys::fs::file_status &Status);

FileObservation::Kind kindOf(llvm::sys::fs::file_type Type);
// Path as it is now, by its kind and stamp (for files too big to hash):
// absent where it cannot be stat'ed.
FileObservation observeStamp(const std::string &Path);
llvm::StringRef kindName(FileObservation::Kind Kind); // "absent", "file", "directory", "other"
std::optional<FileObservation::Kind> kindNamed(llvm::StringRef Name);

// Observes Path now as Recorded was observed (the same digests, nothing more);
// an error says how it differs ("./check.h: content changed").
llvm::Error matchesNow(const FileObservation &Recorded);

} // namespace kopt
