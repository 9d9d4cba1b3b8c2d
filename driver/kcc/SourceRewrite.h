// kcc's rewrite path: the TU the real compiler sees instead of the user's
// source. It begins with a #line directive naming the original file, so
// diagnostics, -lineinfo and -G point at the user's source, and keeps every line
// where it was.
#pragma once

#include "support/TemporaryFiles.h"

#include <llvm/Support/Error.h>

#include <optional>
#include <string>

namespace kopt::driver {

// The rewritten TU for OriginalText read from PathAsWritten: kopt pragmas
// blanked (and, once variants exist, kernels replaced).
std::string rewriteTranslationUnit(llvm::StringRef OriginalText, llvm::StringRef PathAsWritten);

// Creates the empty file for the rewritten source of Source and returns its
// path: <Output>.kopt/<Source's file name> (Output: the compile's output, or
// Source's file name in the working directory where there is none). The name
// is nvcc's own, so nvcc names what --keep leaves as for the original
// (main.ptx, main.cudafe1.cpp), and the path is the same every build, so a
// compiler cache (ccache) sees the same compile. Both the directory and the
// file are registered in Temps.
llvm::Expected<std::string> createRewriteFile(const std::optional<std::string> &Output,
                                              llvm::StringRef Source, TemporaryFiles &Temps);

} // namespace kopt::driver
