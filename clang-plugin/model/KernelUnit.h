// A kernel unit: the self-contained CUDA source of one kernel (its definition
// and the device code, types, variables and macros it uses), which NVRTC or
// `nvcc -cubin` compiles on its own with the TU's -D/-I flags. Its hash keys
// the result cache. Built by the front end (KernelUnitBuilder.h); this header
// needs no clang.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kopt::frontend {

// A declaration's place in its file: byte offsets [Begin, End) and the
// (presumed) lines of its first and last character.
struct SourceSpan {
  unsigned Begin = 0, End = 0;
  unsigned BeginLine = 0, EndLine = 0;
};

struct KernelUnit {
  std::string Text; // Includes, then #defines, then declarations in TU order.
  std::string Hash; // hashUnitText(Text).
  // The #include lines kept for used declarations and macros from system and
  // CUDA headers, as written in the user's files.
  std::vector<std::string> Includes;
  std::vector<std::string> Macros; // Names of the macros whose #define is copied.
  std::vector<std::string> Decls;  // Qualified names of the copied declarations; the kernel last.
  // What the unit means beyond its text, as this compile defines it (the
  // cache key holds it; docs/cache.md#the-key): "NAME=BODY" or
  // "NAME(PARAMS)=BODY" for each macro the text uses without defining it (from
  // the command line, the compiler or a system header), and for each
  // command-line macro that a header the unit includes looks at. Sorted.
  std::vector<std::string> Environment;
  SourceSpan Definition; // The kernel's definition in the main file.
};

// Text with trailing whitespace removed from every line, blank lines dropped
// and a final newline: edits that do not change the code do not change the hash.
std::string normalizeUnitText(llvm::StringRef Text);

// "sha256:" and the hex SHA-256 of normalizeUnitText(Text).
std::string hashUnitText(llvm::StringRef Text);

} // namespace kopt::frontend
