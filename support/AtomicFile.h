// Whole-file writes that readers never see half done: a temporary file in the
// target's directory, then rename() over the target.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

namespace kopt {

// Creates Path's directory if needed. On any failure (no space, no
// permission) the target is unchanged and no temporary file is left.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content);

} // namespace kopt
