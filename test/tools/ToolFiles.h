// Whole-file reads and writes for the test tools, which end with a message on
// the first failure (die is each tool's own, naming the tool).
#pragma once

#include <llvm/ADT/Twine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

namespace kopt::testtools {

[[noreturn]] void die(const llvm::Twine &Message);

inline std::string readFile(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  if (!B)
    die("cannot read " + Path);
  return (*B)->getBuffer().str();
}

inline void writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    die("cannot write " + Path + ": " + EC.message());
  OS << Text;
}

} // namespace kopt::testtools
