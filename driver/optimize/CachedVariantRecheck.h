// A cached variant checked again on launches of a later `kopt record` that
// its entry was not verified on (issue 17): the original and the variant on
// those recorded launches (and the random input sets), verification and a
// screen, never a new search.
#pragma once

#include "clang-plugin/model/KernelVariant.h"
#include "driver/optimize/KernelOptimization.h"
#include "evaluator/Evaluator.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <vector>

namespace kopt::driver {

struct Recheck {
  evaluator::VariantOutcome Outcome;
  std::vector<uint32_t> VerifiedIds; // The recorded launches it ran on.
  bool passed() const;               // Verified: faster, not faster or promising.
};

// Variant (of Job's kernel) on the distinct recorded launches Ids (sampled as
// every workload is, WorkloadFromRecording.h), on Eval.
llvm::Expected<Recheck> recheckCachedVariant(const KernelJob &Job,
                                             const frontend::KernelVariant &Variant,
                                             llvm::ArrayRef<uint32_t> Ids,
                                             evaluator::VariantEvaluator &Eval);

} // namespace kopt::driver
