#include "support/LineDirective.h"

namespace kopt {

std::string lineDirective(llvm::StringRef Path, unsigned Line) {
  std::string Out = "#line " + std::to_string(Line) + " \"";
  for (char C : Path) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"\n";
}

} // namespace kopt
