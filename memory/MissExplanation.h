// Why a kernel's lookup missed: the entry for the same kernel whose key is
// nearest to the lookup's (fewest differing components, the newest of equals)
// and what differs (CacheKeyDiff.h). kcc says it under --kopt-verbose, and in
// cache-only mode whenever the caches hold an entry for the kernel; `kopt cache
// explain` says it for any compile.
#pragma once

#include "memory/CacheKeyDiff.h"
#include "memory/ResultCache.h"

#include <optional>
#include <string>

namespace kopt::memory {

struct MissExplanation {
  std::optional<ListedEntry> Nearest;
  KeyDifference Difference;
  // "entry f8392061 (project cache) was made for sm_90, this compile is sm_80",
  // or "no cache entry for kernel K".
  std::string text(llvm::StringRef Kernel) const;
};

MissExplanation explainMiss(const ResultCache &Cache, llvm::StringRef Kernel,
                            const CacheKey &Wanted);

} // namespace kopt::memory
