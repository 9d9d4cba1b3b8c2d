// kcc's rewrite path: the TU the real compiler sees instead of the user's
// source. It begins with a #line directive naming the original file, so
// diagnostics, -lineinfo and -G point at the user's source, and keeps every line
// where it was.
#pragma once

#include <llvm/Support/Error.h>

#include <string>

namespace kopt::driver {

// The rewritten TU for OriginalText read from PathAsWritten: kopt pragmas
// blanked (and, once variants exist, kernels replaced).
std::string rewriteTranslationUnit(llvm::StringRef OriginalText, llvm::StringRef PathAsWritten);

// Creates a unique, empty file for the rewritten source of Source in Dir,
// named <stem>.kopt-XXXXXX.cu, and returns its path.
llvm::Expected<std::string> createRewriteFile(llvm::StringRef Dir, llvm::StringRef Source);

} // namespace kopt::driver
