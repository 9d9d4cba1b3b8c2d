// Writing a whole buffer to a file descriptor, retrying after interruptions.
#pragma once

#include <llvm/ADT/StringRef.h>

namespace kopt {

// False where the descriptor refuses (EPIPE: a reader that went away); the
// rest of Text is then lost.
bool writeAll(int Fd, llvm::StringRef Text);

} // namespace kopt
