// How a model's kernel becomes a variant. The llm engine's variants replace
// the kernel's definition in place (same name, same signature, same launch)
// and may bring device functions of their own; what the evaluator compiles is
// exactly what kcc will splice: the original unit with the model's code in
// place of the kernel's definition.
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/model/KernelVariant.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::agents {

// The original kernel's unit and where its definition (template header
// included) lies in it.
struct UnitLayout {
  std::string Text;
  size_t Begin = 0, End = 0;
};

// From a parse of K's unit; fails with clang's diagnostics.
llvm::Expected<UnitLayout> unitLayoutOf(const frontend::KernelSummary &K,
                                        const std::vector<std::string> &ClangArgs);

struct PlacedVariant {
  std::string Unit;                // What the evaluator compiles.
  frontend::KernelVariant Variant; // What kcc splices: the same code, in place.
};

// Places the definition of kernel KernelName (qualified; matched by its last
// component) that Code holds, with the top-level declarations before it in
// its scope that the original unit does not already have (new helpers).
// Code may repeat the whole unit (includes, types, namespaces); what repeats
// the original is dropped. Fails where Code defines no such kernel.
llvm::Expected<PlacedVariant> placeModelCode(const UnitLayout &Layout, llvm::StringRef KernelName,
                                             llvm::StringRef Code);

// The content hash of a unit as the llm engine's short-term memory keys it:
// comments and layout do not make code new.
std::string codeHash(llvm::StringRef Unit);

// Empty where the kernel in Unit keeps Original's signature (its mangled
// name; for a template, its parameter types); else what changed, or clang's
// errors where Unit does not parse.
std::string signatureChange(const frontend::KernelSummary &Original, llvm::StringRef Unit,
                            const std::vector<std::string> &ClangArgs);

} // namespace kopt::agents
