// What several kopt subcommands start from: `FILE [--] FLAGS` on the command
// line, the file parsed by the front end with those flags, and one annotated
// kernel picked by name.
#pragma once

#include "clang-plugin/model/KernelSummary.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::driver {

struct SourceKernels {
  std::string File;
  std::vector<std::string> Flags; // The compiler flags after FILE (nvcc's spelling).
  std::string CudaPath;
  std::vector<frontend::KernelSummary> Kernels;
};

// Splits Args into the file and the flags after it ("--" optional), then
// parses the file. Usage names the subcommand's usage for errors.
llvm::Expected<SourceKernels> loadSourceKernels(const std::vector<std::string> &Args,
                                                llvm::StringRef Usage);

// The annotated kernel named Name (qualified or not), or the only annotated
// kernel when Name is empty. Errors list the annotated kernels.
llvm::Expected<const frontend::KernelSummary &> pickAnnotatedKernel(const SourceKernels &S,
                                                                    llvm::StringRef Name);

// Removes "--NAME VALUE" / "--NAME=VALUE" from Args; the value, if present.
llvm::Expected<std::optional<std::string>> takeOption(std::vector<std::string> &Args,
                                                      llvm::StringRef Name);
// Removes "--NAME" from Args; whether it was there.
bool takeFlag(std::vector<std::string> &Args, llvm::StringRef Name);

} // namespace kopt::driver
