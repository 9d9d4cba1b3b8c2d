// The evaluation worker's entry point. A program that uses the Evaluator calls
// runEvaluationWorkerIfAsked() first thing in main(): the Evaluator starts the
// worker as this same executable with WorkerFlag, two pipe descriptors and the
// ordinal of the device it works on.
#pragma once

#include <optional>

namespace kopt::evaluator {

inline constexpr const char *WorkerFlag = "--kopt-evaluation-worker";

// The worker's exit status when argv asks for the worker, else empty.
std::optional<int> runEvaluationWorkerIfAsked(int Argc, char **Argv);

// Serves requests from InFd, answering on OutFd, until InFd closes, on the
// device of this ordinal. Exits the process after a fault or a hang (the
// context is lost; the parent restarts it).
int runEvaluationWorker(int InFd, int OutFd, int DeviceOrdinal);

} // namespace kopt::evaluator
