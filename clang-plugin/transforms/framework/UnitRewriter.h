// What transforms share: the unit parsed with clang, the kernel's AST and a
// Rewriter over the unit's text. A transform edits through the Rewriter; the
// helper returns the edited unit.
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <optional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class Rewriter;
class SourceLocation;
class SourceRange;
} // namespace clang

namespace kopt::transform {

struct UnitAST {
  clang::ASTContext &Ctx;
  // The definition named TransformInput::Kernel.Name; for a kernel template,
  // its instantiation that the summary describes (analysedInstantiation).
  // Transforms analyse that instantiation rather than the template's pattern:
  // one analysis serves plain kernels and templates, as the instantiation has
  // concrete types and constants where the pattern has dependent expressions
  // (R, T, CXXDependentScopeMemberExpr ...) that each analysis would have to
  // see through. Its nodes carry the pattern's source locations, so text() and
  // the Rewriter read and edit the template as written; a transform that
  // writes a value it computed (a tile of 2 * R + 16 cells as 20) makes the
  // template right for that instantiation, the one a variant is spliced for.
  const clang::FunctionDecl &Kernel;
  clang::Rewriter &Rewrite; // Over the unit's text.

  // The text of a range as written (token range); empty where it comes from a
  // macro expansion, which transforms leave alone.
  std::string text(clang::SourceRange Range) const;
  // The presumed line and column, as KernelFeatures reports them.
  unsigned line(clang::SourceLocation Loc) const;
  unsigned column(clang::SourceLocation Loc) const;
};

using UnitEdit = llvm::function_ref<llvm::Error(UnitAST &)>;

// Parses In.UnitText with In.ClangArgs, finds the kernel's definition, runs
// Edit and returns the unit with its edits (unchanged where it made none).
// Fails, with clang's diagnostics, where the unit does not parse, and where the
// kernel is missing or Edit fails.
llvm::Expected<std::string> rewriteUnit(const TransformInput &In, UnitEdit Edit);

// The same for an edit that also reports what it found (the launch a
// transform then maps): the rewritten unit and Edit's result.
template <typename T> struct RewrittenWith {
  std::string UnitText;
  T Found;
};
template <typename T>
llvm::Expected<RewrittenWith<T>>
rewriteUnitWith(const TransformInput &In, llvm::function_ref<llvm::Expected<T>(UnitAST &)> Edit) {
  std::optional<T> Found;
  llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &U) -> llvm::Error {
    llvm::Expected<T> Result = Edit(U);
    if (!Result)
      return Result.takeError();
    Found = std::move(*Result);
    return llvm::Error::success();
  });
  if (!Text)
    return Text.takeError();
  return RewrittenWith<T>{std::move(*Text), std::move(*Found)};
}

// Appended to a template's unit where it is parsed: a use of the instantiation
// Args that makes clang instantiate it (the unit itself instantiates nothing).
std::string instantiationUse(llvm::StringRef Kernel, llvm::StringRef Args);

// The file name the unit is parsed under (diagnostics name it).
inline constexpr llvm::StringLiteral UnitFileName = "/kopt/unit.cu";

} // namespace kopt::transform
