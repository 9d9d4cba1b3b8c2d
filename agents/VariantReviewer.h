// The reviewer's checks. Before the evaluator runs a variant, on its source: a
// variant may not bring in what the evaluator cannot see through (other
// streams, graphs, host or managed memory, device-side launches, state that
// persists across calls) unless the original kernel had it too, nor
// approximate math the user did not allow. After it: a
// gain too large to take on trust is verified again on fresh inputs.
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"
#include "evaluator/Evaluator.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace kopt::agents {

// Empty where the variant passes; else one line naming what it uses.
std::string reviewVariantSource(llvm::StringRef Original, llvm::StringRef Variant,
                                const transform::TransformPolicy &Policy);

// A verified gain above this is evaluated again before it is accepted.
inline constexpr double ReverifyAbove = 10;

// Evaluates Variant again on inputs no earlier run of the session saw; the
// gain stands only where the verdict is Faster.
llvm::Expected<evaluator::Verdict> reverifyOnFreshInputs(evaluator::VariantEvaluator &Eval,
                                                         const evaluator::KernelSource &Variant,
                                                         const evaluator::VariantLaunch &Launch);

} // namespace kopt::agents
