#include "support/Duration.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Regex.h>

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

} // namespace kopt
