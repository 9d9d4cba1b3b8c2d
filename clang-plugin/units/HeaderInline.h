// Splices the variants of kernels defined in the user's headers into a TU's
// compile without changing a header on disk: each #include on the way from the
// main file to such a header is replaced by the text of the file it includes,
// rewritten (variants spliced; `#pragma once` and `#pragma kopt` blanked; quoted
// includes that resolve beside it made absolute, as the copy no longer lies
// there), between #line directives that name that file and then the includer
// again, so diagnostics, -lineinfo and -G still name the header. A comment
// before each inlined file names it for kcc's dependency file
// (splicedHeaders).
#pragma once

#include "clang-plugin/model/IncludeStep.h"
#include "clang-plugin/units/KernelRewrite.h"
#include "clang-plugin/units/VariantSplice.h"

#include <llvm/Support/Error.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace kopt::frontend {

class HeaderInliner {
public:
  using ReadFile = std::function<llvm::Expected<std::string>(const std::string &Path)>;
  explicit HeaderInliner(ReadFile Reader) : Read(std::move(Reader)) {}

  // A variant of a kernel defined in the last file of Chain (Splice's offsets
  // are that file's; its launches are ignored here). Fails where a file of the
  // chain is named by more than one #include in the TU: a second include would
  // bring the original definition back.
  llvm::Error add(const std::vector<IncludeStep> &Chain, VariantSplice Splice);

  // The replacements of the #include directives in MainText (the main file as
  // parsed), on its offsets (for spliceVariants' Others); empty if nothing was added.
  llvm::Expected<std::vector<KernelReplacement>> mainFileEdits(llvm::StringRef MainText) const;

private:
  llvm::Expected<std::string> render(const std::string &File) const;

  ReadFile Read;
  std::map<std::string, std::vector<VariantSplice>> Splices;       // By file.
  std::map<std::string, std::map<unsigned, std::string>> Children; // File: directive -> file.
  std::map<unsigned, std::string> MainChildren;
};

// The headers a rewritten TU's text holds inlined, as the comments name them.
std::vector<std::string> splicedHeaders(llvm::StringRef RewrittenText);

} // namespace kopt::frontend
