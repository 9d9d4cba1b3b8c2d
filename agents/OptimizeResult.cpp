#include "agents/OptimizeResult.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

namespace kopt::agents {

std::string variantHash(llvm::StringRef Unit, const std::optional<frontend::LaunchMapping> &L) {
  llvm::SHA256 H;
  H.update(Unit);
  if (L) {
    for (const std::string &E : L->Grid)
      H.update("|g" + E);
    for (const std::string &E : L->Block)
      H.update("|b" + E);
    H.update("|s" + L->SharedMem);
  }
  return llvm::toHex(H.final(), /*LowerCase=*/true).substr(0, 16);
}

} // namespace kopt::agents
