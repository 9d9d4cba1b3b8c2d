// kcc's direct mode, as ccache's: a manifest records one full rewrite of a
// translation unit in which every annotated kernel got its answer from the
// result cache: what kopt's parse and its lookups read (FileObservations), the
// cache entries used, the lines the build printed, and the rewritten text. It is
// stored under a key made of what determines the rewrite without parsing; a
// later compile with the same key whose recorded inputs all still look the same
// writes the recorded text and skips the parse.
//
// File: "kopt-manifest 1 <contentDigest of the rest>\n", then one JSON object.
// The digest covers the bytes as stored, so a corrupt or truncated manifest is
// refused without re-serializing it.
#pragma once

#include "memory/cache/CacheKey.h"
#include "support/FileObservation.h"

#include <llvm/Support/Error.h>

#include <string>
#include <utility>
#include <vector>

namespace kopt::memory {

struct ManifestKeyInputs {
  std::string SourcePath;   // As the compile names it (the #line directive and notes do too).
  std::string SourceDigest; // contentDigest() of the text.
  std::string WorkingDir;   // Relative paths in flags and observations resolve against it.
  std::vector<std::string> CompileFlags;                        // nvcc's, as given.
  std::vector<std::pair<std::string, std::string>> Options;     // kopt's, as the front end reads.
  std::vector<std::pair<std::string, std::string>> Environment; // Variables that steer the parse.
  std::string Compiler;    // The real nvcc, whose toolkit the parse reads.
  std::string KoptVersion; // And the front end's binary with its stamp: a rebuilt kopt misses.
  std::string FrontEnd;
};

CacheKey makeManifestKey(const ManifestKeyInputs &Inputs);

// A result-cache file that one lookup read, or found absent (a project entry
// that appears later would be read first).
struct ManifestEntry {
  std::string Key; // The cache key's digest.
  bool Project = false;
  FileObservation File;
};

// One piece of the build's stderr, printed as is; VerboseOnly pieces only
// under --kopt-verbose (they are recorded either way).
struct ManifestLine {
  std::string Text;
  bool VerboseOnly = false;
};

struct DirectManifest {
  std::string Key;                     // Its own key's digest: a misplaced file is refused.
  std::vector<FileObservation> Inputs; // The source and all the parse looked at.
  std::vector<ManifestEntry> Entries;  // In lookup order.
  std::vector<ManifestLine> Log;
  std::string Output; // The rewritten TU, byte for byte.
};

constexpr int ManifestFormat = 1;

std::string serializeManifest(const DirectManifest &M);
// Fails on a bad header, an unknown format, a digest mismatch or a body that
// does not describe a manifest.
llvm::Expected<DirectManifest> parseManifest(llvm::StringRef Text);

// The first recorded input or entry that no longer looks as recorded.
llvm::Error checkManifest(const DirectManifest &M);

} // namespace kopt::memory
