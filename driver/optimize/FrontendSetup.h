// The front end's parse setup for a compile's nvcc flags: kopt's clang
// resource headers and shims, the real nvcc's toolkit, the flags that change
// how the TU parses and the GPU architecture. `kopt inspect`, `kopt rewrite-tu`
// and `kopt apply` share it (with picking a kernel by name), so they parse a file the same way.
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/parse/CudaParseSetup.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::driver {

// Fails when no real nvcc is found (its toolkit holds the CUDA headers). The
// parse is for the compile's first real architecture that clang knows; where
// it knows none (sm_100, sm_120), for the newest it knows, and ArchNote (if
// given) gets one line that says so.
llvm::Expected<frontend::CudaParseSetup> frontendSetupFor(const std::vector<std::string> &NvccFlags,
                                                          std::string *ArchNote = nullptr);

// "; did you mean 'K'?" for the kernel of Kernels whose name (qualified or
// not) is closest to Name, case aside (a wrongly cased name is the common
// slip); empty where none is close.
std::string suggestKernel(const std::vector<const frontend::KernelSummary *> &Kernels,
                          llvm::StringRef Name);

// The kernel named Name (qualified, or unqualified if that is unique).
llvm::Expected<const frontend::KernelSummary *>
findKernelNamed(const std::vector<frontend::KernelSummary> &Kernels, llvm::StringRef Name);

} // namespace kopt::driver
