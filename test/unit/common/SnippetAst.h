// A snippet kernel's clang AST, as the transforms' analyses read it: the unit
// (SnippetPrelude + Code) parsed the way rewriteUnit parses it, with the
// kernel's definition; and the statements of a kind under a node.
#pragma once

#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"
#include "test/unit/common/SnippetKernel.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/Casting.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kopt::snippets {

// Runs Check on the unit of Code's one kernel; a test failure where the unit
// does not parse or has not exactly one kernel.
inline void
withUnitAst(const std::string &Code,
            llvm::function_ref<void(transform::UnitAST &, const frontend::KernelSummary &)> Check,
            const std::vector<std::string> &Args = fuzz::snippetClangArgs()) {
  frontend::KernelSummary Kernel = snippetKernel(Code, Args);
  if (Kernel.Name.empty())
    return;
  llvm::Expected<std::string> Unit =
      transform::rewriteUnit(transform::TransformInput{Kernel, SnippetPrelude + Code, Args},
                             [&](transform::UnitAST &U) -> llvm::Error {
                               Check(U, Kernel);
                               return llvm::Error::success();
                             });
  if (!Unit)
    ADD_FAILURE() << llvm::toString(Unit.takeError());
}

// The nodes of type T under Root, parents first.
template <class T> std::vector<const T *> allUnder(const clang::Stmt *Root) {
  std::vector<const T *> Found;
  transform::forEachStmt(Root, [&](const clang::Stmt *S) {
    if (const auto *Each = llvm::dyn_cast<T>(S))
      Found.push_back(Each);
  });
  return Found;
}

// What an llvm::Error says, or "" for success.
inline std::string messageOf(llvm::Error E) { return E ? llvm::toString(std::move(E)) : ""; }

} // namespace kopt::snippets
