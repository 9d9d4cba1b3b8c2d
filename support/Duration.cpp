#include "support/Duration.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Regex.h>

#include <string>

namespace kopt {

std::optional<double> parseDurationSeconds(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  if (!llvm::Regex("^([0-9]+(\\.[0-9]+)?)(ms|s|m|h)$").match(Text, &Parts))
    return std::nullopt;
  double Number = std::stod(Parts[1].str());
  llvm::StringRef Unit = Parts[3];
  if (Unit == "ms")
    return Number / 1000;
  if (Unit == "m")
    return Number * 60;
  if (Unit == "h")
    return Number * 3600;
  return Number;
}

} // namespace kopt
