// The optimization loop of one kernel (docs/architecture.md#the-optimizers-loop): the
// profiler measures the original, the planner (StepPlanner.h) values every
// step it could take next (a transform at one parameter point on one variant
// found so far), the coder applies the best one (mechanically, the skills
// engine), the reviewer rejects variants that could fool the evaluator, and
// the evaluator verifies each one and screens its time against the original;
// a promising variant that would beat the best so far is confirmed with the
// full timing test. Best-first over chains of transforms, within a budget of
// wall time and evaluations; short-term memory keeps every attempt, never
// evaluates one variant twice and does not retry a step that failed.
#pragma once

#include "agents/OptimizeResult.h"
#include "agents/StepPlanner.h"
#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/model/KernelVariant.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"
#include "evaluator/Evaluator.h"

#include <llvm/Support/Error.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kopt::agents {

struct OptimizeBudget {
  double Seconds = 120;
  unsigned Evaluations = 100;
  unsigned MaxDepth = 3;      // Transforms in one chain.
  unsigned PointsPerStep = 3; // Parameter points tried per transform and node.
};

struct OptimizeRequest {
  const frontend::KernelSummary *Kernel = nullptr;
  evaluator::Workload Work;
  std::vector<std::string> CompileOptions; // For the evaluator's compile (WorkloadFromKernel.h).
  // The original's NVRTC name expression and mangled name as kernelSourceFor
  // gives them: a kernel template's carry its launched instantiation (box<2>).
  // Empty: the kernel's own name.
  std::string NameExpression, MangledName;
  std::vector<std::string> ClangArgs; // For the transforms' parses.
  OptimizeBudget Budget;
  std::vector<std::string> Disabled; // Transform ids the pragma's skills(-id) turned off.
  std::vector<std::string> Forced;   // skills(+id): tried first.
  transform::TransformPolicy Policy; // What the user allows beyond exact results.
  // Long-term memory for the planner once the original is measured (its
  // profile as facts). Unset: every transform on the default prior.
  std::function<PlanInputs(const evaluator::Baseline &)> Plan;
};

llvm::Expected<OptimizeResult> optimizeKernel(const OptimizeRequest &Request,
                                              evaluator::VariantEvaluator &Eval,
                                              const ProgressFn &Progress = {});

// The spliceable variant (KernelVariant.h) of a transformed unit: the kernel's
// definition, renamed when Launch remaps the launch. Fails where the transforms
// changed the unit outside the kernel's definition.
llvm::Expected<frontend::KernelVariant>
variantFromUnit(const frontend::KernelSummary &Original, llvm::StringRef UnitText,
                const std::optional<frontend::LaunchMapping> &Launch,
                const std::vector<std::string> &ClangArgs);

// The inverse of variantFromUnit: the unit the evaluator compiles for a
// stored variant, Original's unit with the variant's definition in place of
// the kernel's (named as the original again).
llvm::Expected<std::string> unitFromVariant(const frontend::KernelSummary &Original,
                                            const frontend::KernelVariant &Variant,
                                            const std::vector<std::string> &ClangArgs);

// Where a variant with launch mapping Mapping runs on Work: the workload's
// launch and each recorded launch, mapped with that launch's own dimensions
// and scalars (a recorded k changes a grid that depends on k).
llvm::Expected<evaluator::VariantLaunch> variantLaunchFor(const evaluator::Workload &Work,
                                                          const frontend::LaunchMapping &Mapping);

} // namespace kopt::agents
