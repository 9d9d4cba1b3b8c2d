// `#line N "path"` directives for generated source that must report the
// user's file and lines.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace kopt {

// `#line Line "Path"\n` with Path escaped as a string literal.
std::string lineDirective(llvm::StringRef Path, unsigned Line = 1);

} // namespace kopt
