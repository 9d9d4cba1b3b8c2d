// Applies a chain of transforms to one kernel's unit. Each step sees the front
// end's view of the current text (findKernelsInCode on it) with the original
// pragma, whose block size follows the launch mappings so far; mappings compose.
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"

#include <string>
#include <vector>

namespace kopt::transform {

struct Step {
  const Transform *T = nullptr;
  ParamSet Params;
};

struct ChainResult {
  std::string UnitText;
  std::optional<frontend::LaunchMapping> Launch;
  std::vector<std::string> Summaries; // One line a step.
  // The original pragma as it describes the launch after the chain's steps.
  std::optional<frontend::PragmaClauses> Pragma;
};

// The front end's summary of the kernel named Name in UnitText, with Pragma
// (the unit itself carries no pragma). For a kernel template, Instance is the
// instantiation the summary's features describe (frontend::chosenInstantiation
// of the original kernel; the unit itself instantiates nothing): the summary
// lists it as its one instantiation, and rewriteUnit analyses the kernel at it.
// Fails with clang's diagnostics.
llvm::Expected<frontend::KernelSummary>
summarizeUnit(llvm::StringRef UnitText, llvm::StringRef Name,
              const std::vector<std::string> &ClangArgs,
              const std::optional<frontend::PragmaClauses> &Pragma,
              const std::optional<frontend::KernelInstantiation> &Instance);

// chosenInstantiation(Original) where there is one; std::nullopt for a plain
// kernel and for a template without a chosen instantiation (the workload
// reports why; the transforms that need an instantiation say so).
std::optional<frontend::KernelInstantiation>
analysedInstantiation(const frontend::KernelSummary &Original);

// The pragma as it describes the launch after Launch: block dimensions that the
// mapping sets to integer literals take those values; where a block dimension
// becomes another expression the launch clause is dropped (unknown).
frontend::PragmaClauses pragmaAfterLaunch(const frontend::PragmaClauses &Pragma,
                                          const frontend::LaunchMapping &Launch);

// Runs Steps in order on Kernel's unit (Kernel from the original file).
llvm::Expected<ChainResult> applyChain(const frontend::KernelSummary &Kernel,
                                       const std::vector<std::string> &ClangArgs,
                                       const std::vector<Step> &Steps);

// One more step on what a chain made, where the caller holds Current, the
// front end's view of Made.UnitText (summarizeUnit with Made.Pragma): the
// same as applyChain with the step appended, without parsing the earlier
// steps' units again (a search extends many chains by one step each).
llvm::Expected<ChainResult> applyStep(const frontend::KernelSummary &Current,
                                      const ChainResult &Made,
                                      const std::vector<std::string> &ClangArgs, const Step &S);

} // namespace kopt::transform
