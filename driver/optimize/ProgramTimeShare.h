// A kernel's share of the build-wide budget (--kopt-build-budget) where
// `kopt record` measured the program: in proportion to the GPU time the
// program spent in it (memory/cache/RecordedProgram.h), so that a kernel that
// takes 99% of the program's time gets 99% of the build's optimization time.
#pragma once

#include "clang-plugin/model/KernelSummary.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>

namespace kopt::driver {

struct ProgramTimeShare {
  double Seconds = 0;  // Of the build's budget.
  double Fraction = 0; // Of the recorded program's GPU time.
};

// None where the last recorded program did not record Kernel or no launch of
// it was timed. Warning: why the recorded program could not be read.
std::optional<ProgramTimeShare> programTimeShare(const frontend::KernelSummary &Kernel,
                                                 llvm::StringRef RecordingsDir, double BuildSeconds,
                                                 std::string *Warning);

// "87% of the build budget 2m, as of the program's recorded GPU time".
std::string describeShare(const ProgramTimeShare &Share, llvm::StringRef BuildBudget);

} // namespace kopt::driver
