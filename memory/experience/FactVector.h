// A kernel's facts as a point, for "which kernels are like this one": the
// experience store weighs what a skill did on earlier kernels by how close
// their points are to the current kernel's, not by the kernels' names.
#pragma once

#include "memory/experience/KernelFacts.h"

#include <llvm/ADT/ArrayRef.h>

#include <map>
#include <string>

namespace kopt::memory {

// Fact name -> value scaled to about [0, 1]. Absent measured facts are absent.
using FactVector = std::map<std::string, double, std::less<>>;

// The facts that make kernels alike, each scaled: the kind and the idiom
// booleans, loop and access counts (log-scaled), and the profile (throughputs,
// occupancy, parallelism, arithmetic intensity).
FactVector factVector(const Facts &F);

// exp(-d / 0.02), d the weighted mean squared difference over the facts both
// vectors have: 1 for equal points, about 0.1 where one idiom boolean of
// about 25 weights differs, near 0 across kernel kinds; 0 without shared facts.
double similarity(const FactVector &A, const FactVector &B);

} // namespace kopt::memory
