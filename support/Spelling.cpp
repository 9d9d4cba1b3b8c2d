#include "support/Spelling.h"

#include <limits>

namespace kopt {

std::optional<std::string> closestSpelling(llvm::StringRef Word,
                                           llvm::ArrayRef<llvm::StringRef> Candidates,
                                           unsigned MaxDistance, bool IgnoreCase) {
  std::string Folded = IgnoreCase ? Word.lower() : Word.str();
  unsigned Best = std::numeric_limits<unsigned>::max();
  std::optional<std::string> Choice;
  for (llvm::StringRef C : Candidates) {
    if (C.empty())
      continue;
    std::string Candidate = IgnoreCase ? C.lower() : C.str();
    unsigned Distance =
        llvm::StringRef(Folded).edit_distance(Candidate, /*AllowReplacements=*/true, MaxDistance);
    if (Distance <= MaxDistance && Distance < Best) {
      Best = Distance;
      Choice = C.str();
    }
  }
  return Choice;
}

std::string didYouMean(const std::optional<std::string> &Suggestion, llvm::StringRef Suffix) {
  return Suggestion ? "; did you mean '" + *Suggestion + Suffix.str() + "'?" : "";
}

} // namespace kopt
