// The GPUs a user lets kopt optimize on (`--kopt-devices`, KOPT_DEVICES,
// `devices:` in .kopt.yaml): ordinals among the GPUs the process sees (after
// CUDA_VISIBLE_DEVICES), or GPU UUIDs as nvidia-smi prints them, separated by
// commas. Empty: every GPU.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::driver {

// "0,2" -> {"0", "2"}; "GPU-8c1f..." stays one item. An error names an item
// that is neither, or one given twice.
llvm::Expected<std::vector<std::string>> parseDeviceList(llvm::StringRef Text);

} // namespace kopt::driver
