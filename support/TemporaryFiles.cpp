#include "support/TemporaryFiles.h"

#include <array>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace kopt {

namespace {
// The signal handler can only use async-signal-safe calls: fixed storage, unlink.
constexpr size_t MaxFiles = 64, MaxPath = 4096;
std::array<std::array<char, MaxPath>, MaxFiles> Registered;
volatile std::sig_atomic_t RegisteredCount = 0;
constexpr int HandledSignals[] = {SIGINT, SIGTERM, SIGHUP};

// A file, or an (empty) directory registered before the files in it.
void removePath(const char *Path) {
  if (::unlink(Path) != 0)
    ::rmdir(Path);
}

void removeRegisteredAndReraise(int Signal) {
  for (std::sig_atomic_t I = RegisteredCount; I > 0; --I)
    removePath(Registered[I - 1].data());
  std::signal(Signal, SIG_DFL);
  std::raise(Signal);
}

void registerForSignals(const std::string &Path) {
  if (RegisteredCount >= static_cast<std::sig_atomic_t>(MaxFiles) || Path.size() >= MaxPath)
    return; // Still removed by the destructor on every ordinary exit path.
  std::memcpy(Registered[RegisteredCount].data(), Path.c_str(), Path.size() + 1);
  RegisteredCount = RegisteredCount + 1;
  if (RegisteredCount == 1)
    for (int Signal : HandledSignals)
      std::signal(Signal, removeRegisteredAndReraise);
}
} // namespace

TemporaryFiles::TemporaryFiles() = default;

TemporaryFiles::~TemporaryFiles() {
  RegisteredCount = 0;
  if (Keeping)
    return;
  for (auto It = Paths.rbegin(); It != Paths.rend(); ++It)
    removePath(It->c_str());
}

void TemporaryFiles::add(const std::string &Path) {
  Paths.push_back(Path);
  registerForSignals(Path);
}

} // namespace kopt
