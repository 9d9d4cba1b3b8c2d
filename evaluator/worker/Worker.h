// The parent's handle on the evaluation worker process: starts it, sends a
// request, waits for the answer, and notices when it died (a fault or a hang
// ends the worker on purpose) so that the next request starts a fresh one.
#pragma once

#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

#include <string>
#include <sys/types.h>

namespace kopt::evaluator {

class Worker {
public:
  // A worker of Executable on the device of this ordinal.
  Worker(std::string Executable, int DeviceOrdinal)
      : Program(std::move(Executable)), Device(DeviceOrdinal) {}
  ~Worker();
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  // The answer to Request. Where the worker dies or does not answer within
  // TimeoutSeconds, it is killed and the error says so; running() is then false.
  llvm::Expected<nlohmann::json> request(const nlohmann::json &Request, double TimeoutSeconds);

  bool running() const { return Pid > 0; }
  unsigned starts() const { return Starts; }
  void stop();

private:
  llvm::Error start();
  std::string reapStatus(); // "exited with status 3", "killed by signal 9"

  std::string Program;
  int Device;
  pid_t Pid = -1;
  int ToWorker = -1, FromWorker = -1;
  unsigned Starts = 0;
};

} // namespace kopt::evaluator
