#include "support/Exec.h"

#include "support/TerminationSignals.h"
#include "support/WriteAll.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace kopt {

namespace {
std::vector<char *> toArgv(const std::vector<std::string> &Args) {
  std::vector<char *> Argv;
  Argv.reserve(Args.size() + 1);
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  return Argv;
}
// Copies Fd to To (stdout or stderr) line by line through Filter until end of file.
void forwardFiltered(int Fd, int To, const LineFilter &Filter) {
  std::string Pending;
  char Buffer[4096];
  auto Emit = [&](llvm::StringRef Line, bool Newline) {
    std::optional<std::string> Filtered = Filter(Line);
    if (!Filtered)
      return;
    std::string Out = std::move(*Filtered);
    if (Newline)
      Out += '\n';
    // A closed stream loses the line; the child is still read to its end.
    writeAll(To, Out);
  };
  while (true) {
    ssize_t N = ::read(Fd, Buffer, sizeof Buffer);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Pending.append(Buffer, size_t(N));
    size_t Start = 0, End;
    while ((End = Pending.find('\n', Start)) != std::string::npos) {
      Emit(llvm::StringRef(Pending).slice(Start, End), true);
      Start = End + 1;
    }
    Pending.erase(0, Start);
  }
  if (!Pending.empty())
    Emit(Pending, false);
}

// Runs Program, its output stream Stream (STDOUT_FILENO or STDERR_FILENO)
// passing through Filter where one is given.
llvm::Expected<int> runFiltering(const std::string &Program, const std::vector<std::string> &Args,
                                 int Stream, const LineFilter &Filter) {
  std::vector<char *> Argv = toArgv(Args);
  int Pipe[2] = {-1, -1};
  if (Filter && ::pipe(Pipe) != 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot create a pipe: %s", std::strerror(errno));
  std::fflush(nullptr);
  // No signal between the fork and setChild: it would end this process alone.
  signals::blockTermination(true);
  pid_t Pid = ::fork();
  if (Pid < 0) {
    int Errno = errno;
    signals::blockTermination(false);
    return llvm::createStringError(std::error_code(Errno, std::generic_category()),
                                   "cannot start '%s': %s", Program.c_str(), std::strerror(Errno));
  }
  if (Pid == 0) {
    signals::defaultsInChild();
    if (Filter) {
      ::dup2(Pipe[1], Stream);
      ::close(Pipe[0]);
      ::close(Pipe[1]);
    }
    ::execv(Program.c_str(), Argv.data());
    std::fprintf(stderr, "cannot execute '%s': %s\n", Program.c_str(), std::strerror(errno));
    ::_exit(127);
  }
  signals::setChild(Pid);
  signals::blockTermination(false);
  if (Filter) {
    ::close(Pipe[1]);
    forwardFiltered(Pipe[0], Stream, Filter);
    ::close(Pipe[0]);
  }
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0) {
    if (errno != EINTR) {
      int Errno = errno;
      signals::childEnded();
      return llvm::createStringError(std::error_code(Errno, std::generic_category()),
                                     "waiting for '%s': %s", Program.c_str(), std::strerror(Errno));
    }
  }
  signals::childEnded(); // A signal forwarded to the child ends this process now.
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  return 128 + WTERMSIG(Status);
}
} // namespace

llvm::Error execReplacing(const std::string &Program, const std::vector<std::string> &Args) {
  std::vector<char *> Argv = toArgv(Args);
  std::fflush(nullptr); // Keep anything printed so far ahead of the new program's output.
  ::execv(Program.c_str(), Argv.data());
  return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                 "cannot execute '%s': %s", Program.c_str(), std::strerror(errno));
}

llvm::Expected<int> runAndWait(const std::string &Program, const std::vector<std::string> &Args) {
  return runAndWaitFilteringStderr(Program, Args, nullptr);
}

llvm::Expected<int> runAndWaitFilteringStderr(const std::string &Program,
                                              const std::vector<std::string> &Args,
                                              const StderrFilter &Filter) {
  return runFiltering(Program, Args, STDERR_FILENO, Filter);
}

llvm::Expected<int> runAndWaitFilteringStdout(const std::string &Program,
                                              const std::vector<std::string> &Args,
                                              const LineFilter &Filter) {
  return runFiltering(Program, Args, STDOUT_FILENO, Filter);
}

} // namespace kopt
