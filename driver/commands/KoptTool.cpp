// kopt: everything but compiling (driver/commands/KoptMain.cpp).
#include "driver/commands/KoptMain.h"
#include "evaluator/worker/WorkerMain.h"
#include <optional>

#include <string>
#include <vector>

int main(int argc, char **argv) {
  // The evaluator runs the GPU work in a child process: this same program.
  if (std::optional<int> Status = kopt::evaluator::runEvaluationWorkerIfAsked(argc, argv))
    return *Status;
  return kopt::driver::koptMain(std::vector<std::string>(argv + 1, argv + argc));
}
