#include "memory/MissExplanation.h"

namespace kopt::memory {

std::string MissExplanation::text(llvm::StringRef Kernel) const {
  if (!Nearest)
    return "no cache entry for kernel " + Kernel.str();
  std::string Where = "entry " + Nearest->File.Digest.substr(0, 8) +
                      (Nearest->Project ? " (project cache)" : " (user cache)");
  if (Difference.same()) // Read as a miss: the file was unusable (a warning said why).
    return Where + " has this key but could not be used";
  return Where + ": " + Difference.reason();
}

MissExplanation explainMiss(const ResultCache &Cache, llvm::StringRef Kernel,
                            const CacheKey &Wanted) {
  MissExplanation Best;
  for (ListedEntry &L : Cache.list()) {
    if (!L.Stored || L.Stored->Entry.KernelName != Kernel)
      continue;
    KeyDifference D = compareKeys(L.Stored->Key.Canonical, Wanted.Canonical);
    bool Better =
        !Best.Nearest || D.distance() < Best.Difference.distance() ||
        (D.distance() == Best.Difference.distance() && L.File.LastUse > Best.Nearest->File.LastUse);
    if (Better) {
      Best.Difference = std::move(D);
      Best.Nearest = std::move(L);
    }
  }
  return Best;
}

} // namespace kopt::memory
