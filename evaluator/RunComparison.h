// Verification of one run of a variant against the original's run on the same
// inputs: no write outside any buffer (guard zones intact), read-only buffers
// unchanged, and every element of every written buffer within tolerance.
#pragma once

#include "evaluator/GpuSession.h"
#include "evaluator/OutputComparison.h"
#include "evaluator/Workload.h"

#include <optional>
#include <string>

namespace kopt::evaluator {

struct RunVerdict {
  bool Passed = false;
  std::string Failure;                  // One line for the user; empty when passed.
  std::string Buffer;                   // The buffer that failed.
  std::optional<ElementMismatch> Worst; // Its worst element.
  uint64_t Mismatches = 0;
  double WorstRatio = 0; // Over all buffers, also when passed: how close to the tolerance.
};

RunVerdict compareRuns(const Workload &W, const RunResult &Reference, const RunResult &Candidate);

} // namespace kopt::evaluator
