// Launch mappings of chained transforms: each maps its input's launch to its
// output's, so a chain's mapping is their composition. Needs no clang.
#pragma once

#include "clang-plugin/model/KernelVariant.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>

namespace kopt::transform {

// Then after First: Then's grid_x, ..., smem become First's expressions
// (parenthesized). Kernel parameter names stay: transforms keep the arguments.
frontend::LaunchMapping composeLaunch(const frontend::LaunchMapping &First,
                                      const frontend::LaunchMapping &Then);
std::optional<frontend::LaunchMapping>
composeLaunch(const std::optional<frontend::LaunchMapping> &First,
              const std::optional<frontend::LaunchMapping> &Then);

// "grid(gx, gy, gz) block(bx, by, bz)", plus " smem(s)" where it changes.
std::string formatLaunch(const frontend::LaunchMapping &M);

} // namespace kopt::transform
