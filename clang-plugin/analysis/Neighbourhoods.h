// The stencil feature: inputs each thread reads at several fixed offsets of its
// own position (A[i - 1], A[i], A[i + 1]; A[(i + di) * n + j + dj] in loops
// with literal bounds; clamped neighbours), found through index polynomials
// (IndexPolynomial.h), so that every spelling of one neighbourhood counts alike.
#pragma once

#include "clang-plugin/model/KernelFeatures.h"

namespace kopt::frontend {

// Per input the kernel never writes, its largest neighbourhood with two or
// more offsets.
std::vector<Neighbourhood> findNeighbourhoods(const clang::FunctionDecl &Kernel,
                                              clang::ASTContext &Ctx);

} // namespace kopt::frontend
