#include "support/TemporaryFiles.h"

#include "support/TerminationSignals.h"

#include <unistd.h>

namespace kopt {

TemporaryFiles::TemporaryFiles() = default;

TemporaryFiles::~TemporaryFiles() {
  signals::forgetPaths();
  if (Keeping)
    return;
  for (auto It = Paths.rbegin(); It != Paths.rend(); ++It)
    if (::unlink(It->c_str()) != 0)
      ::rmdir(It->c_str()); // A directory registered before its files.
}

void TemporaryFiles::add(const std::string &Path) {
  Paths.push_back(Path);
  signals::removeOnSignal(Path.c_str());
}

} // namespace kopt
