// Where the preprocessor looked at a macro that the compile's command line
// defines or undefines (-D, -U): every expansion, #ifdef, #ifndef, #elifdef,
// #elifndef and defined() of such a name, by file. A kernel unit's cache key
// holds a command-line macro that a header the unit includes looks at
// (KernelUnitBuilder.h), so `-D__CUDA_NO_HALF_OPERATORS__` keys a unit that
// includes cuda_fp16.h, and `-DNDEBUG` keys no unit that includes nothing
// that tests it.
#pragma once

#include <clang/Basic/SourceLocation.h>
#include <clang/Lex/PPCallbacks.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

namespace clang {
class Preprocessor;
class IdentifierInfo;
} // namespace clang

namespace kopt::frontend {

class CommandLineMacroTests : public clang::PPCallbacks {
public:
  explicit CommandLineMacroTests(const clang::Preprocessor &P) : PP(P) {}

  // Each such name with the files (expansion locations) where it was looked at.
  void forEach(
      llvm::function_ref<void(const clang::IdentifierInfo &, llvm::ArrayRef<clang::FileID>)> Visit)
      const;

  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &, clang::SourceRange,
                    const clang::MacroArgs *) override {
    saw(Name);
  }
  void Defined(const clang::Token &Name, const clang::MacroDefinition &,
               clang::SourceRange) override {
    saw(Name);
  }
  void Ifdef(clang::SourceLocation, const clang::Token &Name,
             const clang::MacroDefinition &) override {
    saw(Name);
  }
  void Ifndef(clang::SourceLocation, const clang::Token &Name,
              const clang::MacroDefinition &) override {
    saw(Name);
  }
  void Elifdef(clang::SourceLocation, const clang::Token &Name,
               const clang::MacroDefinition &) override {
    saw(Name);
  }
  void Elifndef(clang::SourceLocation, const clang::Token &Name,
                const clang::MacroDefinition &) override {
    saw(Name);
  }

private:
  void saw(const clang::Token &Name);

  const clang::Preprocessor &PP;
  llvm::DenseMap<const clang::IdentifierInfo *, llvm::SmallVector<clang::FileID, 4>> Files;
};

} // namespace kopt::frontend
