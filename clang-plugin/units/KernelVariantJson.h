// KernelVariant as JSON: the files `kopt apply --variant` reads and the form in
// which the result cache stores a variant. One object:
//
//   {
//     "format": "kopt-variant-1",           // optional on input
//     "kernel": "ns::saxpy",                // the original kernel, qualified
//     "code": "__global__ void ...",         // device code, then the __global__ definition
//     "variant_name": "saxpy_b128",          // optional: absent or "" replaces in place
//     "launch": {                            // optional: only with variant_name
//       "grid": ["(grid_x * block_x + 127) / 128"],   // 1 to 3 expressions; missing
//       "block": ["128"],                              // ones keep the original's
//       "smem": "smem"                                 // optional
//     }
//   }
//
// A variant with a name and no "launch" keeps the original launch. Expressions
// may be JSON strings or integers. Needs no clang.
#pragma once

#include "clang-plugin/model/KernelVariant.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::frontend {

inline constexpr llvm::StringLiteral KernelVariantFormat = "kopt-variant-1";

// The object above, indented by two spaces, with a final newline.
std::string kernelVariantToJson(const KernelVariant &V);

// One variant object. Errors name what is wrong ("'launch' needs 'variant_name'").
llvm::Expected<KernelVariant> kernelVariantFromJson(llvm::StringRef Text);

// A file's variants: one object as above, or an array of them.
llvm::Expected<std::vector<KernelVariant>> kernelVariantsFromJson(llvm::StringRef Text);

} // namespace kopt::frontend
