#include "support/WriteAll.h"

#include <cerrno>
#include <unistd.h>

namespace kopt {

bool writeAll(int Fd, llvm::StringRef Text) {
  for (size_t Done = 0; Done < Text.size();) {
    ssize_t N = ::write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += size_t(N);
  }
  return true;
}

} // namespace kopt
