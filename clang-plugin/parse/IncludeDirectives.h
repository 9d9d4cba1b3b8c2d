// The #include directives of a parse, so that a kernel defined in a user header
// can be spliced into the TU's compile: the chain of directives from the main
// file to the header, each with how many directives name its file.
#pragma once

#include "clang-plugin/model/IncludeStep.h"

#include <llvm/ADT/DenseMap.h>

#include <memory>
#include <string>
#include <vector>

namespace clang {
class FileEntry;
class Preprocessor;
class SourceLocation;
class SourceManager;
} // namespace clang

namespace kopt::frontend {

class IncludeDirectiveLog {
public:
  // Starts recording on PP's callbacks; the log must outlive the parse.
  void install(clang::Preprocessor &PP);

  // The directives from the main file down to the file holding Loc, the main
  // file's first; empty where Loc is in the main file or nothing was recorded.
  std::vector<IncludeStep> chainTo(clang::SourceLocation Loc, const clang::SourceManager &SM) const;

  struct Directive {
    unsigned HashRaw = 0, FilenameEndRaw = 0; // clang::SourceLocation raw encodings.
  };

private:
  std::shared_ptr<llvm::DenseMap<const clang::FileEntry *, std::vector<Directive>>> Seen =
      std::make_shared<llvm::DenseMap<const clang::FileEntry *, std::vector<Directive>>>();
};

} // namespace kopt::frontend
