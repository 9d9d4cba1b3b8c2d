// Small helpers the transforms share: the pragma's launch as numbers.
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"

namespace kopt::transform {

// The pragma's block size (the product of its dimensions) with its args
// resolved; empty without a launch clause or where it does not evaluate.
std::optional<int64_t> pragmaBlockThreads(const frontend::KernelSummary &Kernel);
// The pragma's block dimensions; empty as above.
std::optional<std::array<int64_t, 3>> pragmaBlockDims(const frontend::KernelSummary &Kernel);

// The threads the pragma's launch starts (grid times block); empty as above.
std::optional<int64_t> pragmaThreadsLaunched(const frontend::KernelSummary &Kernel);

// Text (an expression as the front end reports it: a loop bound) as an
// integer under the pragma's args; empty where it does not evaluate.
std::optional<int64_t> pragmaIntValue(const frontend::KernelSummary &Kernel,
                                      const std::string &Text);

// Shapes that many transforms need, each with the reason a kernel lacks it.
// No shared memory, barriers or warp intrinsics: threads that do not work together.
Fit independentThreads(const frontend::KernelSummary &Kernel);
// Whether the kernel calls atomicAdd ("the kernel has no atomicAdd" where not).
Fit callsAtomicAdd(const frontend::KernelSummary &Kernel);
// A plain kernel, or a template with the instantiation its features describe
// (summarizeUnit's Instance): transforms that need concrete trip counts, tile
// sizes or element types analyse a template at that instantiation.
Fit analysedAtInstantiation(const frontend::KernelSummary &Kernel);
// Why: the words where a template's code is parsed without an instantiation.
std::string templateWithoutInstantiation();
// Threads that use between Min and Max dimensions of the thread geometry.
Fit dimensionsBetween(const frontend::KernelSummary &Kernel, unsigned Min, unsigned Max);

} // namespace kopt::transform
