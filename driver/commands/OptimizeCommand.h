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
#include <memory>
#include <string>
#include <vector>

namespace kopt::driver {

struct OptimizeGpus {
  // The GPUs there are (the `devices` option then picks among them).
  std::function<llvm::Expected<std::vector<evaluator::DeviceInfo>>()> List;
  GpuPool::EvaluatorStarter Start; // An evaluator on one of them.
};

llvm::Error runOptimizeWith(const std::vector<std::string> &Args, const OptimizeGpus &Gpus);

// One kernel's evaluator where the GPU is already chosen (`kopt worker-job`,
// whose worker gives each job one GPU): the first the process sees, with its
// name and architecture.
struct OptimizeEvaluator {
  std::unique_ptr<evaluator::VariantEvaluator> Eval;
  std::string Device;    // For the header line.
  std::string Arch = {}; // "sm_90", where known.
};
using EvaluatorFactory = std::function<llvm::Expected<OptimizeEvaluator>()>;
llvm::Expected<OptimizeEvaluator> startGpuEvaluator();

} // namespace kopt::driver
