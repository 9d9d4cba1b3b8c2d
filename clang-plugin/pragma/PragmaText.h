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

// A pragma may also come from a macro (`#define KOPT(x) _Pragma(#x)`, then
// `KOPT(kopt optimize ...)`), which only a preprocessor sees. Text can only tell
// that a file (or the headers it includes) could hold one: it uses the
// `_Pragma` operator, and somewhere the word `kopt` stands alone.
bool usesPragmaOperator(llvm::StringRef Text);
bool mentionsKoptWord(llvm::StringRef Text);

// Text with every `#pragma kopt` directive, including its backslash-continued
// lines, replaced by empty lines: line numbers stay the same.
std::string blankKoptPragmas(llvm::StringRef Text);

} // namespace kopt::frontend
