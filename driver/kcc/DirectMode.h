// kcc's direct mode, as ccache's (memory/cache/DirectManifest.h): before it runs
// kopt's front end on an annotated source, kcc looks up the manifest that the
// last full rewrite of the same source with the same flags and options left.
// If every file that rewrite read, and every cache entry it used, still looks
// the same, kcc writes the recorded rewritten TU and replays its notes: no kopt
// process, no clang parse. Anything else runs the front end, which records a
// new manifest when all kernels hit the cache. kcc checks without clang.
#pragma once

#include "driver/kcc/KccPipeline.h"
#include "driver/nvcc/NvccCommandLine.h"
#include "memory/cache/DirectManifest.h"

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kopt::driver {

struct DirectAttempt {
  bool Hit = false; // Temp holds the recorded rewrite; the notes were printed.
  // On a miss, the key under which the front end records (`rewrite-tu
  // --manifest`); empty where direct mode is off or there is no cache.
  std::string Key;
  // On a hit: the entries the recorded rewrite used, and the caches looked in.
  std::vector<memory::ManifestEntry> Entries = {};
  std::string UserCache = {}, ProjectCache = {};
};

// Looks Source (whose text kcc read) up; on a hit writes its rewrite to Temp.
DirectAttempt tryDirect(const KccContext &C, const NvccCommandLine &Cmd, const std::string &Source,
                        llvm::StringRef Text, const std::string &Temp);

// A direct hit's kernels, appended to the build log --kopt-report names (as
// the front end appends a full rewrite's): each entry the rewrite used, a hit.
void appendDirectHitToBuildLog(const KccContext &C, const std::string &Source,
                               const DirectAttempt &Hit);

} // namespace kopt::driver
