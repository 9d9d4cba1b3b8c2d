// kcc's and kopt's own messages: "<tool>: error: ...", like clang's driver.
#pragma once

#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

inline void reportError(llvm::StringRef Tool, llvm::Error E) {
  llvm::errs() << Tool << ": error: " << llvm::toString(std::move(E)) << "\n";
}
inline void reportError(llvm::StringRef Tool, llvm::StringRef Message) {
  llvm::errs() << Tool << ": error: " << Message << "\n";
}

} // namespace kopt::driver
