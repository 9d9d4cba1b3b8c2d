// The build log that `kopt report` reads: one JSON object a line, one line a
// kernel that a compile looked up in the result cache (what it found, or why
// it missed). kcc appends a compile's lines under a lock (--kopt-report=FILE),
// so parallel compiles of one build never interleave; a later line about the
// same kernel supersedes an earlier one (a rebuild of one file).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::report {

struct BuildRecord {
  std::string Source;    // The compiled file.
  std::string File;      // Where the kernel is defined (Source, or a header).
  unsigned Line = 0;     // 0: not known (a direct-mode hit).
  std::string Kernel;    // "" for a direct-mode hit: its entry names it.
  std::string Kind;      // The features' kernel kind ("" : not known).
  std::string Arch;      // "sm_90"; "" where not known.
  std::string Key;       // The cache key's digest.
  std::string Outcome;   // One of the outcome names below.
  std::string Detail;    // What kcc said about it.
  std::string Reason;    // A miss's reason, the same for every kernel it stopped.
  std::string UserCache; // The caches the compile looked in ("" : none).
  std::string ProjectCache;
  std::string Date; // UTC, as entries record dates.
};

// Outcomes: a hit (variant or "nothing beat the original"), optimized by this
// compile, a miss that compiled the original (Detail: why).
inline constexpr llvm::StringLiteral OutcomeHit = "hit", OutcomeOptimized = "optimized",
                                     OutcomeMiss = "miss";

// Appends Records to Path (created with its directory) under Path.lock.
llvm::Error appendBuildRecords(llvm::StringRef Path, llvm::ArrayRef<BuildRecord> Records);

struct BuildLog {
  std::vector<BuildRecord> Records; // In the order they were written.
  // "FILE:LINE:COL: not a build record: why", for lines that are not (a
  // compile killed mid-write); the others are read.
  std::vector<std::string> Problems;
};

// Fails where Path cannot be read.
llvm::Expected<BuildLog> readBuildLog(llvm::StringRef Path);

} // namespace kopt::report
