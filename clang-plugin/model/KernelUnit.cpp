#include "clang-plugin/model/KernelUnit.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

namespace kopt::frontend {

std::string normalizeUnitText(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  for (llvm::StringRef Line : Lines) {
    Line = Line.rtrim(" \t\r\f\v");
    if (Line.empty())
      continue;
    Out += Line;
    Out += '\n';
  }
  return Out;
}

std::string hashUnitText(llvm::StringRef Text) {
  std::string Normal = normalizeUnitText(Text);
  std::array<uint8_t, 32> Digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Normal.data()), Normal.size()));
  return "sha256:" + llvm::toHex(Digest, /*LowerCase=*/true);
}

} // namespace kopt::frontend
