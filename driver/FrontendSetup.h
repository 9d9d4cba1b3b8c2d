// What kopt's front-end subcommands share: the clang setup for a compile's
// flags, and picking a kernel by name.
#pragma once

#include "clang-plugin/CudaParseSetup.h"
#include "clang-plugin/KernelFinder.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::driver {

// The setup that parses like the real nvcc (found on PATH) with Flags.
llvm::Expected<frontend::CudaParseSetup> parseSetupFor(const std::vector<std::string> &Flags);

// The kernel named Name (qualified, or unqualified if that is unique).
llvm::Expected<const frontend::KernelSummary *>
findKernelNamed(const std::vector<frontend::KernelSummary> &Kernels, llvm::StringRef Name);

} // namespace kopt::driver
