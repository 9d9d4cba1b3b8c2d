#include "driver/commands/LinePrefixStream.h"

namespace kopt::driver {

LinePrefixStream::~LinePrefixStream() {
  if (!Pending.empty())
    passLine(Pending + "\n");
}

void LinePrefixStream::write_impl(const char *Ptr, size_t Size) {
  Written += Size;
  Pending.append(Ptr, Size);
  size_t End;
  while ((End = Pending.find('\n')) != std::string::npos) {
    passLine(llvm::StringRef(Pending).take_front(End + 1));
    Pending.erase(0, End + 1);
  }
}

void LinePrefixStream::passLine(llvm::StringRef Line) {
  std::lock_guard<std::mutex> Guard(Lock);
  Out << Prefix << Line;
  Out.flush();
}

} // namespace kopt::driver
