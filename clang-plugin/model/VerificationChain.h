// How many launches of a kernel verification chains (issue 31): a kernel
// whose outputs feed its own later launches (an inout buffer) is run that
// many times back to back on the same inputs, every launch on what the last
// one left, by the original and by each variant, and only the final states
// are compared, so error that accumulates over a time-stepped program's
// launches shows. repeat(N) in the pragma sets it. Needs no clang.
#pragma once

#include "clang-plugin/model/KernelParam.h"
#include "clang-plugin/model/PragmaClauses.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>

namespace kopt::frontend {

// The chain of a kernel with an inout buffer and no repeat(N): long enough
// that an approximation a few ulps off per launch grows past a float
// tolerance where the kernel amplifies it, short enough to cost little.
inline constexpr unsigned DefaultInOutChain = 20;

// The longest chain repeat(N) may ask for (WorkloadCheck.h refuses more).
inline constexpr int64_t MaxRepeat = 10000;

// Whether a pointer parameter's buffer is read and written: its buffers(...)
// direction, else inferred from its constness (as driver/optimize/
// WorkloadFromKernel.h does).
bool hasInOutBuffer(const PragmaClauses &P, llvm::ArrayRef<KernelParam> Params);

// repeat(N) where given; else DefaultInOutChain for a kernel with an inout
// buffer, 1 otherwise.
unsigned verificationChain(const PragmaClauses &P, llvm::ArrayRef<KernelParam> Params);

} // namespace kopt::frontend
