// The options of an nvcc command line that change the device code nvcc builds
// for a kernel, normalized: the result cache keys on these and on nothing else
// of the command line (docs/cache.md#the-key lists both sides).
//
// In: --use_fast_math; --ftz, --prec-div, --prec-sqrt, --fmad where they differ
// from what --use_fast_math (or its absence) implies; --maxrregcount; -G;
// -Xptxas options (but -v and the warning options); -rdc (also from -dc);
// --dopt, -Ofc, --extra-device-vectorization, --restrict, --jump-table-density,
// --device-stack-protector, --sanitize, -dlto, -lto, --gen-opt-lto; -std where
// the unit keeps an #include (the standard changes what headers declare; the
// unit's own use of __cplusplus is in its environment); --extended-lambda where
// the unit has an extended lambda.
// Out: host -O, -g, -lineinfo, -Xcompiler, -ccbin, -D/-U/-I/-isystem/-include
// (what reaches the unit is in its text and environment), --expt-relaxed-constexpr,
// output, dependency, warning and driver options.
#pragma once

#include "driver/nvcc/NvccCommandLine.h"

#include <string>
#include <vector>

namespace kopt::driver {

// What the unit does that decides whether -std and --extended-lambda matter.
struct UnitLanguageUse {
  bool KeepsIncludes = false;
  bool HasExtendedLambda = false;
};

// Sorted where order does not matter; -Xptxas items keep their order.
std::vector<std::string> deviceCodegenFlags(const NvccCommandLine &Cmd, UnitLanguageUse Use);

// Whether a unit's text has a lambda with __device__ or __host__ (one that needs
// --extended-lambda).
bool hasExtendedLambda(llvm::StringRef UnitText);

// The command line as kcc passes it on (already expanded: options files read,
// NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS in it), parsed without reading the
// environment again.
llvm::Expected<NvccCommandLine> parseExpandedNvccFlags(const std::vector<std::string> &Flags);

} // namespace kopt::driver
