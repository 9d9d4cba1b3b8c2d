// `#line N "path"` directives for generated source that must report the
// user's file and lines.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kopt {

// `#line Line "Path"\n` with Path escaped as a string literal.
std::string lineDirective(llvm::StringRef Path, unsigned Line = 1);

// The file names of Text's line directives (`#line N "name"` and the
// preprocessor's `# N "name"`), unescaped, in order, each once.
std::vector<std::string> lineDirectiveNames(llvm::StringRef Text);

} // namespace kopt
