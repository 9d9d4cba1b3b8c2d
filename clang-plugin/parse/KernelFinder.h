// Finds the __global__ functions defined in a CUDA file's main source and in the
// user's headers it includes (not system headers: CUDA's, cccl's, -isystem ones),
// with the '#pragma kopt optimize' clauses of those that carry one.
#pragma once

#include "clang-plugin/analysis/KernelFeatures.h"
#include "clang-plugin/analysis/KernelParam.h"
#include "clang-plugin/analysis/LaunchSite.h"
#include "clang-plugin/parse/CudaParseSetup.h"
#include "clang-plugin/parse/IncludeDirectives.h"
#include "clang-plugin/pragma/PragmaClauses.h"
#include "clang-plugin/units/KernelUnit.h"

#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

class FileAccessLog;

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

// The failure of a parse whose only errors are in `#pragma kopt` lines: a
// mistake in the user's annotations (kcc fails the compile), as opposed to code
// clang cannot parse (kcc compiles without kopt).
class PragmaErrors : public llvm::ErrorInfo<PragmaErrors> {
public:
  static char ID;
  explicit PragmaErrors(std::string Path) : File(std::move(Path)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

private:
  std::string File;
};

// Parses File with Setup; clang's diagnostics (the pragma's among them) go to
// stderr in clang's usual file:line:col form. Fails when the file does not parse
// or a pragma has an error (PragmaErrors where only pragmas have errors).
llvm::Expected<std::vector<KernelSummary>> findKernels(const std::string &File,
                                                       const CudaParseSetup &Setup);

// The same for source text in memory, named FileName; ClangArgs are clang's
// arguments without the driver name and the file. Diagnostics go to Diagnostics.
// With Accesses, what the parse reads from disk (Code aside) is recorded there.
// HeaderParse::Precompiled: for code parsed again and again with one ClangArgs
// (PrecompiledCudaHeaders.h); not with Accesses, as the headers are not read.
enum class HeaderParse { Read, Precompiled };
llvm::Expected<std::vector<KernelSummary>>
findKernelsInCode(llvm::StringRef Code, llvm::StringRef FileName,
                  const std::vector<std::string> &ClangArgs, llvm::raw_ostream &Diagnostics,
                  FileAccessLog *Accesses = nullptr, HeaderParse Headers = HeaderParse::Read);

} // namespace kopt::frontend
