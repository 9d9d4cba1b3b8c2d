// Launch mappings (KernelVariant.h) as values: evaluated for one launch, and
// composed when a variant of a variant remaps the launch again. The evaluator
// and the optimizer use these; kcc's splice writes the same expressions into
// the launch site (VariantSplice.h). Needs no clang: the expressions are
// parsed with the pragma clauses' expression parser (ClauseExpr.h).
#pragma once

#include "clang-plugin/model/ClauseExpr.h"
#include "clang-plugin/model/KernelVariant.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <array>
#include <cstdint>

namespace kopt::frontend {

// A launch's values: grid and block in x, y, z, dynamic shared memory in bytes.
struct LaunchDims {
  std::array<int64_t, 3> Grid{1, 1, 1};
  std::array<int64_t, 3> Block{1, 1, 1};
  int64_t SharedMem = 0;
  bool operator==(const LaunchDims &) const = default;
};

// The names a mapping may use for the original launch, in LaunchDims order:
// grid_x, grid_y, grid_z, block_x, block_y, block_z, smem.
llvm::ArrayRef<llvm::StringRef> launchMappingNames();
bool isLaunchMappingName(llvm::StringRef Name);

// The variant's launch for the launch Original with the kernel's integer
// arguments ScalarArgs. The launch names hide parameters of the same name. Fails
// on an expression that does not parse, names an unknown name, or gives a grid
// or block dimension outside [1, 2^32) or a negative shared memory size.
llvm::Expected<LaunchDims> evaluateLaunchMapping(const LaunchMapping &Mapping,
                                                 const LaunchDims &Original,
                                                 const IntBindings &ScalarArgs);

// The mapping that launches like First, then Then on First's result: Then's
// expressions with each launch name replaced by First's expression for it
// (parenthesized); parameter names stay as they are.
LaunchMapping composeLaunchMappings(const LaunchMapping &First, const LaunchMapping &Then);

// Rewrites an expression's names: each identifier token for which Replace gives
// a value is replaced by it; other tokens are kept, with single spaces where the
// text had whitespace.
std::string
substituteNames(llvm::StringRef ExprText,
                llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Replace);

} // namespace kopt::frontend
