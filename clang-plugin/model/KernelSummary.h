// What the front end knows of one kernel: its declaration, its pragma, where it
// is launched, its static features and its self-contained unit. The parse
// (parse/KernelFinder.h) fills it in; everything above the parse reads it.
// Needs no clang.
#pragma once

#include "clang-plugin/model/IncludeStep.h"
#include "clang-plugin/model/KernelFeatures.h"
#include "clang-plugin/model/KernelParam.h"
#include "clang-plugin/model/KernelUnit.h"
#include "clang-plugin/model/LaunchSite.h"
#include "clang-plugin/model/PragmaClauses.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

struct KernelSummary {
  std::string Name;        // Qualified: ns::kernel.
  std::string MangledName; // Empty for templates (no single symbol).
  bool IsTemplate = false;
  unsigned Line = 0, Column = 0;
  // Where the kernel is defined when that is not the main file: a user header
  // (as the parse named it, as in diagnostics); Line and Column are in it.
  std::string HeaderFile;
  std::vector<IncludeStep> IncludedFrom; // For a header kernel: main file's directive first.
  std::vector<KernelParam> Params;
  std::optional<PragmaClauses> Pragma; // Empty for kernels without '#pragma kopt optimize'.
  std::vector<LaunchSite> LaunchSites; // In the main file, in file order.
  std::vector<KernelInstantiation> Instantiations; // For a template: those the TU uses.
  KernelFeatures Features;
  KernelUnit Unit; // Its self-contained source (KernelUnitBuilder.h).
};

// A kernel's name without its scopes: "blas::scale" -> "scale".
inline llvm::StringRef unqualifiedName(llvm::StringRef Qualified) {
  llvm::StringRef Short = Qualified.rsplit("::").second;
  return Short.empty() ? Qualified : Short;
}

} // namespace kopt::frontend
