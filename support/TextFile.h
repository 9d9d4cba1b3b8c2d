// Writing a whole text file in place (created or truncated, its permissions
// kept where it exists), with the reason when it cannot be written.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

namespace kopt {

// "cannot write PATH: REASON" on failure.
llvm::Error writeTextFile(llvm::StringRef Path, llvm::StringRef Text);

} // namespace kopt
