// Why a lookup missed an entry made for the same kernel: the components of two
// canonical key texts (CacheKey::Canonical) that differ, in words, as ccache's
// debug log says why a manifest missed ("the entry was made for sm_90, this
// compile is sm_80", "flag --use_fast_math differs: ...").
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kopt::memory {

struct KeyDifference {
  std::vector<std::string> Components; // The names of those that differ, in key order.
  std::vector<std::string> Reasons;    // One sentence for each difference.
  bool OtherFormat = false;            // The entry's key has another key_format.

  bool same() const { return Components.empty(); }
  // How far apart: a key of another format is farther than any difference.
  unsigned distance() const { return unsigned(Components.size()) + (OtherFormat ? 100 : 0); }
  std::string reason() const; // The reasons joined with "; ".
};

// Entry: the canonical key of a stored entry; Wanted: the lookup's.
KeyDifference compareKeys(llvm::StringRef Entry, llvm::StringRef Wanted);

} // namespace kopt::memory
