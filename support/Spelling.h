// "Did you mean ...?": the known name closest to a misspelt one.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>

namespace kopt {

// The first candidate at the smallest edit distance from Word, if that distance
// is at most MaxDistance; empty candidates are skipped. With IgnoreCase the
// distance is taken between lower-cased spellings (the candidate is returned as given).
std::optional<std::string> closestSpelling(llvm::StringRef Word,
                                           llvm::ArrayRef<llvm::StringRef> Candidates,
                                           unsigned MaxDistance, bool IgnoreCase = false);

// The hint a message ends with: "; did you mean 'X'?" (X then Suffix, as in
// "out="), or nothing where there is no suggestion.
std::string didYouMean(const std::optional<std::string> &Suggestion, llvm::StringRef Suffix = "");

} // namespace kopt
