// A kernel's share of the optimization time where `kopt record` measured the
// program: in proportion to the GPU time the program spent in it
// (memory/cache/RecordedProgram.h), so that a kernel that takes 99% of the
// program's time gets 99% of the time kcc spends optimizing the program.
#pragma once

#include "clang-plugin/model/KernelSummary.h"

#include <llvm/ADT/StringRef.h>

#include <cstddef>
#include <optional>
#include <string>

namespace kopt::driver {

struct ProgramTimeShare {
  double Fraction = 0; // Of the recorded program's GPU time.
  size_t Kernels = 0;  // The recorded program's kernels.
};

// None where the last recorded program did not record Kernel or no launch of
// it was timed. Warning: why the recorded program could not be read.
std::optional<ProgramTimeShare> programTimeShare(const frontend::KernelSummary &Kernel,
                                                 llvm::StringRef RecordingsDir,
                                                 std::string *Warning);

// The time the kernels share: the build budget where the user set one, else
// what they would have had without a recording (the per-kernel budget for
// each recorded kernel), so a recording moves time between the program's
// kernels and adds none.
struct SharedPool {
  double Seconds = 0;
  std::string Words; // "the build budget 10m", "30s (15s for each of 2 recorded kernels)".
};
SharedPool sharedPool(const ProgramTimeShare &Share, std::optional<double> BuildBudgetSeconds,
                      llvm::StringRef BuildBudgetText, double KernelBudgetSeconds,
                      llvm::StringRef KernelBudgetText);

// "99% of the build budget 10m, by the program's recorded GPU time".
std::string describeShare(const ProgramTimeShare &Share, const SharedPool &Pool);

} // namespace kopt::driver
