// `kopt optimize` with the evaluator as a parameter: the command starts the
// GPU's (evaluator::Evaluator); test tools pass fakes with scripted verdicts,
// so everything else, engines included, runs as the command runs it.
#pragma once

#include "evaluator/Evaluator.h"

#include <llvm/Support/Error.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kopt::driver {

struct OptimizeEvaluator {
  std::unique_ptr<evaluator::VariantEvaluator> Eval;
  std::string Device;    // For the header line.
  std::string Arch = {}; // "sm_90", where known.
};
using EvaluatorFactory = std::function<llvm::Expected<OptimizeEvaluator>()>;

// The GPU's evaluator (evaluator::Evaluator::start), with its device's name and
// architecture.
llvm::Expected<OptimizeEvaluator> startGpuEvaluator();

llvm::Error runOptimizeWith(const std::vector<std::string> &Args, const EvaluatorFactory &Start);

} // namespace kopt::driver
