// What the user allows a kernel's variants beyond exact results: reassociation
// within the pragma's tol always; approximate math (CUDA's intrinsics in place
// of correctly rounded functions and division) only where the pragma says
// `fastmath`, kopt's fast_math option is on, or the compile already asks nvcc
// for -use_fast_math. A program that runs a kernel hundreds of times can fail
// its own check on an approximation that one verified launch let through.
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/transforms/framework/Transform.h"

#include <string>
#include <vector>

namespace kopt::driver {

// Whether nvcc's flags ask for fast math (-use_fast_math, --use_fast_math).
bool compileUsesFastMath(const std::vector<std::string> &NvccFlags);

transform::TransformPolicy numericsPolicy(const frontend::KernelSummary &Kernel,
                                          bool OptionFastMath,
                                          const std::vector<std::string> &NvccFlags);

} // namespace kopt::driver
