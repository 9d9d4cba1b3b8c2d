// What transforms share: the unit parsed with clang, the kernel's AST and a
// Rewriter over the unit's text. A transform edits through the Rewriter; the
// helper returns the edited unit.
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"

#include <llvm/ADT/STLFunctionalExtras.h>

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
  const clang::FunctionDecl &Kernel; // The definition named TransformInput::Kernel.Name.
  clang::Rewriter &Rewrite;          // Over the unit's text.

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

// The file name the unit is parsed under (diagnostics name it).
inline constexpr llvm::StringLiteral UnitFileName = "/kopt/unit.cu";

} // namespace kopt::transform
