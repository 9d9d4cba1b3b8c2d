// Kernel units in `kopt inspect`: the "unit" object of each kernel, and
// `kopt inspect --unit NAME FILE`, which prints one kernel's unit text.
#pragma once

#include "clang-plugin/model/KernelSummary.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

// {"hash", "text", "includes", "macros", "decls", "definition": {begin, end,
// begin_line, end_line}}.
nlohmann::ordered_json kernelUnitToJson(const frontend::KernelUnit &Unit);

// Removes `--unit NAME` (or `--unit=NAME`) from Args, before any `--`, and
// returns NAME. An error if --unit has no name.
llvm::Expected<std::optional<std::string>> takeUnitOption(std::vector<std::string> &Args);

// Prints the unit text of the kernel named Name (qualified, or unqualified if
// that is unique) to stdout; an error if there is none.
llvm::Error printKernelUnit(const std::vector<frontend::KernelSummary> &Kernels,
                            llvm::StringRef Name);

} // namespace kopt::driver
