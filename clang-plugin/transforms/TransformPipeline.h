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

} // namespace kopt::transform
