// Durations as users write them in options and pragmas: "500ms", "90s", "2m", "1.5h".
#pragma once

#include <llvm/ADT/StringRef.h>

#include <optional>

namespace kopt {

// Seconds in Text, or nothing when Text is not a number followed by ms, s, m or h.
std::optional<double> parseDurationSeconds(llvm::StringRef Text);

} // namespace kopt
