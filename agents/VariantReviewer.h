// The reviewer's static checks on a variant's source, before the evaluator runs
// it: a variant may not bring in what the evaluator cannot see through (other
// streams, graphs, host or managed memory, device-side launches, state that
// persists across calls) unless the original kernel had it too.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace kopt::agents {

// Empty where the variant passes; else one line naming what it uses.
std::string reviewVariantSource(llvm::StringRef Original, llvm::StringRef Variant);

} // namespace kopt::agents
