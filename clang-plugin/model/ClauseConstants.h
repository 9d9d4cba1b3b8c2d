// Names in a pragma's clause expressions that stand for constants (the
// enumerators a file declares: MODE_0, Activation::Gelu), replaced by their
// values so that every later reader (the checks, the workload, the JSON) sees
// integers.
#pragma once

#include "clang-plugin/model/PragmaClauses.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <memory>
#include <optional>

namespace kopt::frontend {

// What a name stands for: its value, or nothing where it is not a constant.
using ConstantLookup = llvm::function_ref<std::optional<int64_t>(llvm::StringRef)>;

// N with each name that Constant gives a value replaced by an integer node of
// that value, which keeps the name's spelling and token (an enumerator,
// MODE_0, becomes 0); the other nodes are shared with N.
std::shared_ptr<const ExprNode> withConstants(const std::shared_ptr<const ExprNode> &N,
                                              ConstantLookup Constant);

// Every expression of P (launch, args values, buffer sizes and ranges) with
// its constants replaced.
void replaceConstants(PragmaClauses &P, ConstantLookup Constant);

} // namespace kopt::frontend
