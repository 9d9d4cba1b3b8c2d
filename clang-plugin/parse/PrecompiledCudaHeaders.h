// The headers clang includes before every CUDA unit (the runtime wrapper and
// what it pulls in) take 0.3 s of each parse, nearly all of it for a kernel
// unit; a search parses each variant twice. They are precompiled once per
// command line and process (a PCH of an empty unit, built with the same
// arguments, the user's -include files among them, which clang then does not
// read again) and kept in memory; a parse that adds it (`-include-pch`) reads
// them back lazily in a few milliseconds. Only the transform framework's parses use it:
// kcc's one parse of a TU would pay for the PCH and never reuse it.
#pragma once

#include <llvm/ADT/IntrusiveRefCntPtr.h>

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Preprocessor;
} // namespace clang
namespace llvm::vfs {
class InMemoryFileSystem;
}

namespace kopt::frontend {

// Makes a parse with ClangArgs use the precompiled headers: puts the PCH into
// Files (the parse's in-memory overlay) and returns the arguments that load it
// (`-include-pch PATH`), to follow ClangArgs. Where no PCH can be built for
// ClangArgs (clang reported an error in the headers themselves), returns none,
// and the parse reads the headers as before. Thread-safe.
std::vector<std::string> usePrecompiledCudaHeaders(const std::vector<std::string> &ClangArgs,
                                                   llvm::vfs::InMemoryFileSystem &Files);

// In a parse that loaded kopt's PCH, limits whole-unit AST matching
// (MatchFinder::matchAST, match(M, Ctx)) to the declarations the parse itself
// made: a match over the PCH's would deserialize all of them, which costs more
// than reading the headers, and they hold no kernel. Other parses (a user's
// own -include-pch through the plugin) keep the whole unit.
void traverseParsedDeclsOnly(clang::ASTContext &Ctx, const clang::Preprocessor &PP);

// Off: every parse reads the headers (kopt-parse-rate's baseline, and tests
// that compare the two). On by default.
void enablePrecompiledCudaHeaders(bool Enabled);

// How many PCHs this process built, and how many parses used one (tests and
// kopt's timing summary).
struct PrecompiledHeaderUse {
  unsigned Built = 0;
  unsigned Failed = 0;
  unsigned Used = 0;
};
PrecompiledHeaderUse precompiledHeaderUse();

} // namespace kopt::frontend
