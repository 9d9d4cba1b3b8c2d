// The plugin's arguments, as clang passes them: each
// `-fplugin-arg-kopt-KEY=VALUE` (or `-Xclang -plugin-arg-kopt -Xclang
// KEY=VALUE`) is one string "KEY=VALUE".
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace kopt::plugin {

struct PluginOptions {
  std::string ManifestPath; // out=PATH; empty: check the pragmas, write nothing.
};

// Fails on an unknown key (with the closest known one) or a missing value.
llvm::Expected<PluginOptions> parsePluginArgs(llvm::ArrayRef<std::string> Args);

} // namespace kopt::plugin
