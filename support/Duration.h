// Durations as users write them in options and pragmas: "500ms", "90s", "2m", "1.5h".
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>

namespace kopt {

// The units a duration takes: ms, s, m, h (--kopt-budget and budget(time = ...)).
llvm::ArrayRef<llvm::StringRef> durationUnits();
// Seconds in one Unit; nothing for a unit not in durationUnits().
std::optional<double> secondsPerUnit(llvm::StringRef Unit);

// Seconds in Text, or nothing when Text is not a number followed by a unit.
std::optional<double> parseDurationSeconds(llvm::StringRef Text);

// Seconds as a person reads a budget: "0.4s", "45s", "2m", "2m 5s".
std::string formatDuration(double Seconds);

} // namespace kopt
