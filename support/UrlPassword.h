// URLs with credentials ("redis://user:secret@host") as they may be shown:
// every password replaced by "********". For messages and `--kopt-verbose`.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace kopt {

// Masks the password of each URL in Text (URLs separated by spaces).
std::string maskUrlPasswords(llvm::StringRef Text);

} // namespace kopt
