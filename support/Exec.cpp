#include "support/Exec.h"

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
} // namespace

llvm::Error execReplacing(const std::string &Program, const std::vector<std::string> &Args) {
  std::vector<char *> Argv = toArgv(Args);
  std::fflush(nullptr); // Keep anything printed so far ahead of the new program's output.
  ::execv(Program.c_str(), Argv.data());
  return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                 "cannot execute '%s': %s", Program.c_str(), std::strerror(errno));
}

llvm::Expected<int> runAndWait(const std::string &Program, const std::vector<std::string> &Args) {
  std::vector<char *> Argv = toArgv(Args);
  std::fflush(nullptr);
  pid_t Pid = ::fork();
  if (Pid < 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot start '%s': %s", Program.c_str(), std::strerror(errno));
  if (Pid == 0) {
    ::execv(Program.c_str(), Argv.data());
    std::fprintf(stderr, "cannot execute '%s': %s\n", Program.c_str(), std::strerror(errno));
    ::_exit(127);
  }
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0) {
    if (errno != EINTR)
      return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                     "waiting for '%s': %s", Program.c_str(), std::strerror(errno));
  }
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  return 128 + WTERMSIG(Status);
}

} // namespace kopt
