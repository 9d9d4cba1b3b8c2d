// A variant of an annotated kernel, as the optimizer produces it, the result
// cache stores it and kcc splices it into a translation unit
// (docs/kcc.md#variants). Needs no clang.
#pragma once

#include <array>
#include <optional>
#include <string>

namespace kopt::frontend {

// The variant's launch as a pure function of the original launch and the
// kernel's scalar arguments: C expressions over grid_x, grid_y, grid_z,
// block_x, block_y, block_z, smem (the original launch's values) and the names
// of the kernel's integer parameters. Example (block size 128, 1D):
//   Block = {"128", "block_y", "block_z"},
//   Grid  = {"(grid_x * block_x + 127) / 128", "grid_y", "grid_z"}.
struct LaunchMapping {
  std::array<std::string, 3> Grid{"grid_x", "grid_y", "grid_z"};
  std::array<std::string, 3> Block{"block_x", "block_y", "block_z"};
  std::string SharedMem = "smem";
};

struct KernelVariant {
  std::string KernelName; // The original kernel's qualified name.
  // The variant's code: device functions it needs, then its __global__
  // definition. Without a launch mapping it replaces the original definition
  // in place (same name and signature). With one, the kernel is named
  // VariantName, is added after the original, and this TU's launch sites of
  // the original are retargeted to it through the mapping.
  std::string Code;
  std::string VariantName; // Empty when the variant keeps the kernel's name.
  std::optional<LaunchMapping> Launch;
};

} // namespace kopt::frontend
