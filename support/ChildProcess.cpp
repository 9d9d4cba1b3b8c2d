#include "support/ChildProcess.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kopt {

namespace {
int statusOf(int WaitStatus) {
  if (WIFEXITED(WaitStatus))
    return WEXITSTATUS(WaitStatus);
  if (WIFSIGNALED(WaitStatus))
    return 128 + WTERMSIG(WaitStatus);
  return 255;
}
} // namespace

llvm::Expected<ChildProcess>
ChildProcess::start(const std::string &Program, const std::vector<std::string> &Args,
                    const std::vector<std::pair<std::string, std::string>> &Env,
                    const std::string &LogPath) {
  int Log = ::open(LogPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Log < 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot write %s: %s", LogPath.c_str(), std::strerror(errno));
  // Everything the child needs is made before fork: it only calls
  // async-signal-safe functions until exec.
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  std::vector<std::string> Pairs;
  for (char **E = environ; *E; ++E) {
    llvm::StringRef Name = llvm::StringRef(*E).split('=').first;
    bool Replaced = false;
    for (const auto &[N, V] : Env)
      Replaced |= Name == N;
    if (!Replaced)
      Pairs.emplace_back(*E);
  }
  for (const auto &[N, V] : Env)
    Pairs.push_back(N + "=" + V);
  std::vector<char *> Envp;
  for (std::string &P : Pairs)
    Envp.push_back(P.data());
  Envp.push_back(nullptr);
  pid_t Parent = ::getpid();

  std::fflush(nullptr);
  pid_t Pid = ::fork();
  if (Pid < 0) {
    int Saved = errno;
    ::close(Log);
    return llvm::createStringError(std::error_code(Saved, std::generic_category()),
                                   "cannot fork: %s", std::strerror(Saved));
  }
  if (Pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != Parent) // The parent died before prctl.
      ::_exit(127);
    ::dup2(Log, STDOUT_FILENO);
    ::dup2(Log, STDERR_FILENO);
    ::execve(Program.c_str(), Argv.data(), Envp.data());
    const char Message[] = "cannot execute the job's program\n";
    [[maybe_unused]] ssize_t N = ::write(STDERR_FILENO, Message, sizeof(Message) - 1);
    ::_exit(127);
  }
  ::close(Log);
  return ChildProcess(Pid);
}

std::optional<int> ChildProcess::poll() {
  int Status = 0;
  pid_t Done;
  do
    Done = ::waitpid(Pid, &Status, WNOHANG);
  while (Done < 0 && errno == EINTR);
  if (Done == 0)
    return std::nullopt;
  if (Done < 0)
    return 255; // Not our child any more: nothing to wait for.
  return statusOf(Status);
}

void ChildProcess::kill() {
  ::kill(Pid, SIGKILL);
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
}

} // namespace kopt
