// .kopt.yaml: per-project kcc configuration, found by walking up from the
// source file's directory. Keys are the option table's (KoptOptions.h).
#pragma once

#include "driver/config/KoptOptions.h"

#include <optional>
#include <string>

namespace kopt::driver {

// The nearest .kopt.yaml in StartDir or one of its parents.
std::optional<std::string> findConfigFile(llvm::StringRef StartDir);

// Reads Path into Options as OptionSource::ConfigFile. Errors carry the
// file:line:col of the offending key or value.
llvm::Error loadConfigFile(const std::string &Path, KoptOptions &Options);

} // namespace kopt::driver
