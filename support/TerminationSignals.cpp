#include "support/TerminationSignals.h"

#include <array>
#include <csignal>
#include <cstring>
#include <iterator>
#include <unistd.h>

namespace kopt::signals {

namespace {
// Fixed storage: the handler may not allocate.
constexpr size_t MaxPaths = 64, MaxPath = 4096;
std::array<std::array<char, MaxPath>, MaxPaths> Paths;
volatile std::sig_atomic_t PathCount = 0;
volatile pid_t Child = 0;
volatile std::sig_atomic_t Pending = 0;
constexpr int Handled[] = {SIGINT, SIGTERM, SIGHUP};
// A signal ignored when the process started (a background job's SIGINT,
// nohup's SIGHUP) stays ignored, for this process and its children.
bool IgnoredAtStart[3] = {false, false, false};

void removePaths() {
  for (std::sig_atomic_t I = PathCount; I > 0; --I)
    if (::unlink(Paths[I - 1].data()) != 0)
      ::rmdir(Paths[I - 1].data());
  PathCount = 0;
}

void setDisposition(int Signal, void (*Action)(int, siginfo_t *, void *)) {
  struct sigaction A;
  std::memset(&A, 0, sizeof A);
  sigemptyset(&A.sa_mask);
  if (Action) {
    A.sa_sigaction = Action;
    A.sa_flags = SA_SIGINFO | SA_RESTART;
  } else {
    A.sa_handler = SIG_DFL;
  }
  ::sigaction(Signal, &A, nullptr);
}

void endBy(int Signal) {
  removePaths();
  setDisposition(Signal, nullptr);
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, Signal);
  ::sigprocmask(SIG_UNBLOCK, &Set, nullptr);
  ::raise(Signal);
}

void onTermination(int Signal, siginfo_t *Info, void *) {
  pid_t C = Child;
  if (C <= 0)
    return endBy(Signal);
  // The terminal signals the whole foreground group: the child has it already.
  if (!Info || Info->si_code != SI_KERNEL)
    ::kill(C, Signal);
  Pending = Signal; // childEnded() ends this process once the child is gone.
}

void onBrokenPipe(int, siginfo_t *, void *) {}

void install() {
  static bool Installed = false;
  if (Installed)
    return;
  Installed = true;
  for (size_t I = 0; I < std::size(Handled); ++I) {
    struct sigaction Old;
    IgnoredAtStart[I] = ::sigaction(Handled[I], nullptr, &Old) == 0 && Old.sa_handler == SIG_IGN;
    if (!IgnoredAtStart[I])
      setDisposition(Handled[I], onTermination);
  }
}
} // namespace

void removeOnSignal(const char *Path) {
  install();
  size_t Length = std::strlen(Path);
  if (PathCount >= static_cast<std::sig_atomic_t>(MaxPaths) || Length >= MaxPath)
    return; // Still removed by its owner on every ordinary exit path.
  std::memcpy(Paths[PathCount].data(), Path, Length + 1);
  PathCount = PathCount + 1;
}

void forgetPaths() { PathCount = 0; }

void setChild(pid_t Pid) { Child = Pid; }

void childEnded() {
  Child = 0;
  if (int Signal = Pending) {
    Pending = 0;
    endBy(Signal);
  }
}

void blockTermination(bool Block) {
  install();
  sigset_t Set;
  sigemptyset(&Set);
  for (int Signal : Handled)
    sigaddset(&Set, Signal);
  ::sigprocmask(Block ? SIG_BLOCK : SIG_UNBLOCK, &Set, nullptr);
}

void defaultsInChild() {
  for (size_t I = 0; I < std::size(Handled); ++I)
    if (!IgnoredAtStart[I])
      setDisposition(Handled[I], nullptr);
  blockTermination(false);
}

void survivePipeClosure() { setDisposition(SIGPIPE, onBrokenPipe); }

} // namespace kopt::signals
