// Whether kopt's front end must see a CUDA source, read from the text of the
// source and of the user's headers it includes, without a preprocessor (so an
// #include inside an #if counts: at worst a parse that finds nothing). Quoted
// includes are looked for beside their includer or in the -I directories,
// angled ones in the -I directories only; never -isystem nor CUDA's
// directories, whose kernels are not the user's.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>

namespace kopt::driver {

struct PragmaEvidence {
  // The first file with a `#pragma kopt` directive (or `_Pragma("kopt ...")`).
  std::optional<std::string> DirectiveIn;
  bool PragmaOperator = false; // Some file uses `_Pragma`.
  bool KoptWord = false;       // Some file has the word `kopt`.

  // A pragma written through a macro (PragmaText.h) is possible: only clang's
  // preprocessor can tell, so the front end decides.
  bool maybeThroughMacro() const { return PragmaOperator && KoptWord; }
};

// Text is the source at Path. Stops at the first directive found.
PragmaEvidence scanForKoptPragmas(llvm::StringRef Path, llvm::StringRef Text,
                                  llvm::ArrayRef<std::string> IncludeDirs);

} // namespace kopt::driver
