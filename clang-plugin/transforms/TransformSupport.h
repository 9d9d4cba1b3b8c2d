// Small helpers the transforms share: the pragma's launch, parameter checks.
#pragma once

#include "clang-plugin/transforms/Transform.h"

#include <initializer_list>

namespace kopt::transform {

// The pragma's block size (the product of its dimensions) with its args
// resolved; empty without a launch clause or where it does not evaluate.
std::optional<int64_t> pragmaBlockThreads(const frontend::KernelSummary &Kernel);
// The pragma's block dimensions; empty as above.
std::optional<std::array<int64_t, 3>> pragmaBlockDims(const frontend::KernelSummary &Kernel);

// Text (an expression as the front end reports it: a loop bound) as an
// integer under the pragma's args; empty where it does not evaluate.
std::optional<int64_t> pragmaIntValue(const frontend::KernelSummary &Kernel,
                                      const std::string &Text);

// Params[Name], which must be one of Allowed (any value where Allowed is empty).
llvm::Expected<int64_t> requireParam(const ParamSet &Params, llvm::StringRef Name,
                                     std::initializer_list<int64_t> Allowed = {});

// Fails where Params holds a name that is not in Known.
llvm::Error checkParamNames(const ParamSet &Params, std::initializer_list<llvm::StringRef> Known);

} // namespace kopt::transform
