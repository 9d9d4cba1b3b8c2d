#include "evaluator/worker/Worker.h"

#include "evaluator/worker/MessageFraming.h"
#include "evaluator/worker/WorkerMain.h"
#include "evaluator/worker/WorkerProtocol.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char **environ;

namespace kopt::evaluator {

Worker::~Worker() { stop(); }

llvm::Error Worker::start() {
  int Down[2], Up[2]; // Down: parent -> worker; Up: worker -> parent.
  if (::pipe2(Down, O_CLOEXEC) != 0 || ::pipe2(Up, O_CLOEXEC) != 0)
    return llvm::createStringError("cannot create pipes: %s", std::strerror(errno));
  // The worker's ends must survive exec: dup them without O_CLOEXEC.
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  const int WorkerIn = 3, WorkerOut = 4;
  posix_spawn_file_actions_adddup2(&Actions, Down[0], WorkerIn);
  posix_spawn_file_actions_adddup2(&Actions, Up[1], WorkerOut);
  std::string In = std::to_string(WorkerIn), Out = std::to_string(WorkerOut);
  std::string Flag = WorkerFlag, Ordinal = std::to_string(Device);
  char *Argv[] = {Program.data(), Flag.data(), In.data(), Out.data(), Ordinal.data(), nullptr};
  int Err = ::posix_spawn(&Pid, Program.c_str(), &Actions, nullptr, Argv, environ);
  posix_spawn_file_actions_destroy(&Actions);
  ::close(Down[0]);
  ::close(Up[1]);
  if (Err != 0) {
    ::close(Down[1]);
    ::close(Up[0]);
    Pid = -1;
    return llvm::createStringError("cannot start the evaluation worker %s: %s", Program.c_str(),
                                   std::strerror(Err));
  }
  ToWorker = Down[1];
  FromWorker = Up[0];
  ++Starts;
  return llvm::Error::success();
}

std::string Worker::reapStatus() {
  int Status = 0;
  std::string Text = "ended";
  if (Pid > 0 && ::waitpid(Pid, &Status, 0) == Pid) {
    if (WIFEXITED(Status))
      Text = "exited with status " + std::to_string(WEXITSTATUS(Status));
    else if (WIFSIGNALED(Status))
      Text = "was killed by signal " + std::to_string(WTERMSIG(Status));
  }
  Pid = -1;
  return Text;
}

void Worker::stop() {
  if (ToWorker >= 0)
    ::close(ToWorker);
  if (FromWorker >= 0)
    ::close(FromWorker);
  ToWorker = FromWorker = -1;
  if (Pid > 0) {
    ::kill(Pid, SIGKILL);
    reapStatus();
  }
}

llvm::Expected<nlohmann::json> Worker::request(const nlohmann::json &Request,
                                               double TimeoutSeconds) {
  if (Pid <= 0)
    if (auto E = start())
      return E;
  if (auto E = writeMessage(ToWorker, Request)) {
    llvm::consumeError(std::move(E));
    stop();
    return llvm::createStringError("the evaluation worker died before the request");
  }
  ReadFailure Why;
  auto Answer = readMessage(FromWorker, TimeoutSeconds, Why);
  if (Answer) {
    auto Head = answerHead(*Answer);
    if (!Head)
      return Head.takeError();
    if (Head->Status == AnswerStatus::Crashed || Head->Status == AnswerStatus::TimedOut) {
      // The worker exits on its own after these answers.
      if (ToWorker >= 0)
        ::close(ToWorker);
      ::close(FromWorker);
      ToWorker = FromWorker = -1;
      reapStatus();
    }
    return Answer;
  }
  std::string Reason = llvm::toString(Answer.takeError());
  if (Why == ReadFailure::TimedOut && Pid > 0)
    ::kill(Pid, SIGKILL);
  if (ToWorker >= 0)
    ::close(ToWorker);
  ::close(FromWorker);
  ToWorker = FromWorker = -1;
  return llvm::createStringError("%s; the worker %s", Reason.c_str(), reapStatus().c_str());
}

} // namespace kopt::evaluator
