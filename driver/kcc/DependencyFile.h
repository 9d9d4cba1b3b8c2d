// Make-style dependency files (nvcc -MD/-MMD) written for kcc's rewritten
// source must name the user's source instead.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace kopt::driver {

// Replaces the path From with To wherever it stands as a whole dependency in the
// file at DepFile (paths with spaces as make escapes them, "a\ b").
// Also: paths named after To (the user's headers whose copies kcc inlined).
llvm::Error retargetDependencyFile(const std::string &DepFile, llvm::StringRef From,
                                   llvm::StringRef To, llvm::ArrayRef<std::string> Also = {});

// The same on text.
std::string retargetDependencies(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To,
                                 llvm::ArrayRef<std::string> Also = {});

} // namespace kopt::driver
