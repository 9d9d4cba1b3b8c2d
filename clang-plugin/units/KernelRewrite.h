// Splices kernel variants into a translation unit's text, on the offsets the
// front end recorded (KernelUnit::Definition): no parse at rewrite time.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace kopt::frontend {

struct KernelReplacement {
  unsigned Begin = 0, End = 0; // Byte offsets [Begin, End) in the original text.
  std::string KernelName;      // Names the pseudo-file of the variant's #line.
  std::string Text;            // The variant's definition.
};

// OriginalText (read from PathAsWritten) with each replacement's range replaced
// by its text. Each variant is preceded by `#line 1 "<path> (kopt variant of
// <name>)"`, so that diagnostics in it are recognizable, and followed by a
// newline and `#line <N> "<path>"`, so that the code after it keeps its
// original line numbers (the rest of the line where the kernel ended included).
// Text before the first kernel is not preceded by a #line: callers put
// `#line 1 "<path>"` first. `#pragma kopt` directives are left as they are
// (kcc blanks them afterwards, see PragmaText.h). Replacements may come
// in any order; overlapping or out-of-range ones are errors.
llvm::Expected<std::string>
replaceKernelDefinitions(llvm::StringRef OriginalText, llvm::StringRef PathAsWritten,
                         llvm::ArrayRef<KernelReplacement> Replacements);

} // namespace kopt::frontend
