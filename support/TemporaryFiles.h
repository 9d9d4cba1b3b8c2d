// Files a process creates and must not leave behind: removed when the owner is
// destroyed and when SIGINT/SIGTERM/SIGHUP end the process (TerminationSignals.h).
// keep() hands them over to the user instead (kcc --kopt-keep).
#pragma once

#include <string>
#include <vector>

namespace kopt {

class TemporaryFiles {
public:
  TemporaryFiles();
  ~TemporaryFiles();
  TemporaryFiles(const TemporaryFiles &) = delete;
  TemporaryFiles &operator=(const TemporaryFiles &) = delete;

  // Registers Path before the file is created, so that no window leaves it
  // behind. A directory is removed once empty: register it before its files
  // (they go in the reverse order).
  void add(const std::string &Path);
  void keep() { Keeping = true; }
  const std::vector<std::string> &paths() const { return Paths; }

private:
  std::vector<std::string> Paths;
  bool Keeping = false;
};

} // namespace kopt
