// Text-level handling of `#pragma kopt` directives, which needs no parse: it
// decides kcc's fast path, and blanks the directives in the rewritten source so
// that host compilers warning on unknown pragmas (g++ -Wall) stay quiet.
#pragma once

#include <llvm/Support/Error.h>

#include <string>

namespace kopt::frontend {

// True if Text has a `#pragma kopt` directive (any spacing, `# pragma kopt`)
// or a `_Pragma("kopt ...")` operator.
bool containsKoptPragma(llvm::StringRef Text);

// Text with every `#pragma kopt` directive, including its backslash-continued
// lines, replaced by empty lines: line numbers stay the same.
std::string blankKoptPragmas(llvm::StringRef Text);

} // namespace kopt::frontend
