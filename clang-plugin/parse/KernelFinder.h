// Finds the __global__ functions defined in a CUDA file's main source and in the
// user's headers it includes (not system headers: CUDA's, cccl's, -isystem ones),
// with the '#pragma kopt optimize' clauses of those that carry one.
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/parse/CudaParseSetup.h"

#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

class FileAccessLog;

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
