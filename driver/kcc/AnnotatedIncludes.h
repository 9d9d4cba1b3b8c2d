// Whether a source's own headers carry a `#pragma kopt`, so that kcc runs its
// front end on a .cu whose annotated kernels are all in headers. Found from the
// text alone (no preprocessing, so an #include inside an #if counts: at worst a
// parse that finds nothing): quoted includes beside their includer or in the
// -I directories, angled ones in the -I directories only; never -isystem nor
// CUDA's directories, whose kernels are not the user's.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>

namespace kopt::driver {

// The first header reached from Text (the source at Path) that has a
// `#pragma kopt`, or nothing.
std::optional<std::string> annotatedInclude(llvm::StringRef Path, llvm::StringRef Text,
                                            llvm::ArrayRef<std::string> IncludeDirs);

} // namespace kopt::driver
