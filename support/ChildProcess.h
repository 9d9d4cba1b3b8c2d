// A child process that runs beside its parent (a `kopt worker`'s jobs): started
// with extra environment variables and its output in a log file, polled without
// blocking, killed. It dies with its parent (PR_SET_PDEATHSIG), so a worker
// killed in the middle of a job leaves no job process holding a GPU.
#pragma once

#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace kopt {

class ChildProcess {
public:
  // Runs Program with Args (Args[0] is argv[0]) and the environment of this
  // process with Env's NAME=VALUE over it; stdout and stderr go to LogPath
  // (created or truncated).
  static llvm::Expected<ChildProcess>
  start(const std::string &Program, const std::vector<std::string> &Args,
        const std::vector<std::pair<std::string, std::string>> &Env, const std::string &LogPath);

  // The exit status once it ended (128 + the signal's number if a signal
  // ended it), without waiting; std::nullopt while it runs.
  std::optional<int> poll();
  // SIGKILL, then waits for it.
  void kill();

  pid_t pid() const { return Pid; }

private:
  explicit ChildProcess(pid_t P) : Pid(P) {}
  pid_t Pid;
};

} // namespace kopt
