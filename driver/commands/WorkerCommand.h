// `kopt worker` and its jobs' `kopt worker-job` with their GPU parts as
// parameters: the commands list the driver's GPUs and optimize on the GPU's
// evaluator; a test tool (test/tools/FakeWorkerTool.cpp) passes fakes, so
// everything else (the queue, the leases, the job's parse, its key, the
// optimization path, publishing) runs as the commands run it.
#pragma once

#include "driver/commands/OptimizeCommand.h"
#include "driver/optimize/KernelOptimization.h"
#include "driver/worker/WorkerLoop.h"

#include <functional>
#include <string>
#include <vector>

namespace kopt::driver {

struct WorkerHooks {
  // The GPUs to use: those named (--devices), or all where none is named.
  std::function<llvm::Expected<std::vector<WorkerDevice>>(const std::vector<std::string> &Named)>
      ListDevices;
  // The program that runs one job (`kopt worker-job` or a test tool's
  // equivalent), given its arguments; the device's environment is added.
  std::function<std::string()> JobProgram;
  std::vector<std::string> JobProgramArgs; // Before worker-job's own arguments.
};

// kopt worker [--queue URL] [--devices 0,1] [--max-jobs N] [--idle-exit S]
//             [--lease S] [--job-timeout S] [--name NAME] [--work-dir DIR] [--kopt-OPTION]...
int runWorkerWith(const std::vector<std::string> &Args, const WorkerHooks &Hooks);

// kopt worker-job JOB --entry ENTRY --error-file ERROR [--kopt-OPTION]...: the job's
// kernel parsed from its unit and pragma, its key checked against the job's,
// optimized on Start's evaluator; Adjust (if given) may change the kernel's
// job before it runs (a test tool's smaller budget).
int runWorkerJobWith(const std::vector<std::string> &Args, const EvaluatorFactory &Start,
                     const std::function<void(KernelJob &)> &Adjust = {});

} // namespace kopt::driver
