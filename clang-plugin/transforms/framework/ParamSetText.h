// Transform steps as text, the way `kopt transform --apply` spells them:
// "unroll:loop=0,factor=4", "fast-math" (no parameters).
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"

#include <string>

namespace kopt::transform {

struct StepSpec {
  std::string Id;
  ParamSet Params;
};

// Parses "ID[:k=v,...]" with integer values; the id is not looked up.
llvm::Expected<StepSpec> parseStepSpec(llvm::StringRef Text);

// "k=v,k=v" in key order; empty for no parameters.
std::string formatParamSet(const ParamSet &Params);

} // namespace kopt::transform
