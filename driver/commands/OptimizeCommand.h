// `kopt optimize` with its GPUs as a parameter: the command asks the driver
// for the GPUs and starts an evaluator::Evaluator on each it uses; test tools
// pass scripted GPUs and evaluators with scripted verdicts, so everything
// else, engines and the spreading of kernels over GPUs included, runs as the
// command runs it.
#pragma once

#include "driver/optimize/GpuPool.h"
#include "evaluator/device/DeviceQuery.h"

#include <llvm/Support/Error.h>

#include <functional>
#include <string>
#include <vector>

namespace kopt::driver {

struct OptimizeGpus {
  // The GPUs there are (the `devices` option then picks among them).
  std::function<llvm::Expected<std::vector<evaluator::DeviceInfo>>()> List;
  GpuPool::EvaluatorStarter Start; // An evaluator on one of them.
};

int runOptimizeWith(const std::vector<std::string> &Args, const OptimizeGpus &Gpus);

} // namespace kopt::driver
