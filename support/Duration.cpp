#include "support/Duration.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Regex.h>

#include <cmath>
#include <string>

namespace kopt {

namespace {
constexpr llvm::StringRef Units[] = {"ms", "s", "m", "h"};
constexpr double Seconds[] = {1e-3, 1, 60, 3600};
} // namespace

llvm::ArrayRef<llvm::StringRef> durationUnits() { return Units; }

std::optional<double> secondsPerUnit(llvm::StringRef Unit) {
  for (size_t I = 0; I < std::size(Units); ++I)
    if (Units[I] == Unit)
      return Seconds[I];
  return std::nullopt;
}

std::optional<double> parseDurationSeconds(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  if (!llvm::Regex("^([0-9]+(\\.[0-9]+)?)([a-z]+)$").match(Text, &Parts))
    return std::nullopt;
  std::optional<double> Scale = secondsPerUnit(Parts[3]);
  if (!Scale)
    return std::nullopt;
  return std::stod(Parts[1].str()) * *Scale;
}

std::string formatDuration(double S) {
  if (S < 9.95 && std::abs(S - std::round(S)) >= 0.05) // A small share: "0.4s".
    return llvm::formatv("{0:f1}s", S).str();
  long Whole = long(S + 0.5);
  if (Whole >= 60 && Whole % 60 == 0)
    return std::to_string(Whole / 60) + "m";
  if (Whole >= 60)
    return std::to_string(Whole / 60) + "m " + std::to_string(Whole % 60) + "s";
  return std::to_string(Whole) + "s";
}

} // namespace kopt
