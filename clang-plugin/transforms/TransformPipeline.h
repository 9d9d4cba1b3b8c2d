// Applies a chain of transforms to one kernel's unit. Each step sees the front
// end's view of the current text (findKernelsInCode on it) with the original
// pragma, whose block size follows the launch mappings so far; mappings compose.
#pragma once

#include "clang-plugin/transforms/Transform.h"

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
// (the unit itself carries no pragma). Fails with clang's diagnostics.
llvm::Expected<frontend::KernelSummary>
summarizeUnit(llvm::StringRef UnitText, llvm::StringRef Name,
              const std::vector<std::string> &ClangArgs,
              const std::optional<frontend::PragmaClauses> &Pragma);

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
