// Where a kernel is launched in its translation unit's main file, and which
// instantiations of a kernel template the translation unit uses.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

// One expression of a launch: its text as written in the file (a macro's
// invocation stays as written), the same after macro expansion (as clang
// prints it), and where it lies in the main file.
struct LaunchExpr {
  std::string Text;            // As written: "DIV_UP(n, BLOCK)".
  std::string Expanded;        // After macro expansion: "((n) + (256) - 1) / (256)".
  unsigned Begin = 0, End = 0; // File offsets: [Begin, End).
};

// kernel<<<grid, block[, smem[, stream]]>>>(args) in the main file.
struct LaunchSite {
  std::string Caller;            // Qualified name of the enclosing function; empty outside one.
  std::string TemplateArgs;      // For a template's instantiation: "float", "int, 128".
  unsigned Line = 0, Column = 0; // Of the call (its first character).
  unsigned Begin = 0, End = 0;   // File offsets of the whole call: [Begin, End).
  LaunchExpr Grid, Block;
  std::optional<LaunchExpr> SharedMem, Stream; // Absent when not written.
  std::vector<LaunchExpr> Args;
};

// An instantiation of a kernel template that the translation unit uses.
struct KernelInstantiation {
  std::string TemplateArgs; // "float", "int, 128".
  std::string MangledName;  // The device-side kernel symbol.
  // The integral template arguments by their parameters' names ({"BLOCK", 128}),
  // for the pragma's expressions.
  std::map<std::string, int64_t> Values{};
};

} // namespace kopt::frontend
