// Verification of one run of a variant against the original's run on the same
// inputs: no write outside any buffer (guard zones intact), read-only buffers
// unchanged, and every element of every written buffer within tolerance. The
// elements are compared where they are (GpuSession::compareBuffer, on the
// device); this file decides the verdict and words it.
#pragma once

#include "evaluator/device/GpuSession.h"
#include "evaluator/workload/OutputComparison.h"
#include "evaluator/workload/Workload.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>

namespace kopt::evaluator {

struct RunVerdict {
  bool Passed = false;
  std::string Failure;                         // One line for the user; empty when passed.
  std::string Buffer;                          // The buffer that failed.
  std::optional<ElementMismatch> First, Worst; // Its first and worst elements.
  uint64_t Mismatches = 0;
  double WorstRatio = 0; // Over all buffers, also when passed: how close to the tolerance.
};

// The tolerance of a chain of Launches (GpuSession::run's LaunchChain) on
// its final state: N launches each within PerLaunch may drift N times as far
// where errors add up, as they do when the original itself rounds an
// accumulation the variant reassociates (y[j] += A[i][j] * x[i] on a y that
// grows each launch: 4x the one-launch tolerance after 20 launches); error
// that grows from launch to launch (an approximation in a chaotic step: 7000x
// after 20) shows above it. One launch (or none recorded): PerLaunch.
Tolerance chainTolerance(const Tolerance &PerLaunch, unsigned Launches);

// Compares buffer Index (workload order of the buffer arguments) under Tol:
// input-only buffers must be bytewise unchanged (Tol is then {0, 0}).
using BufferComparer = llvm::function_ref<llvm::Expected<BufferComparison>(
    size_t Index, const BufferArg &Buffer, const Tolerance &Tol)>;

// Candidate: the guards of the variant's run (and its chain's length, for
// chainTolerance); Compare: its buffers against the original's. Errors are Compare's (the device
// failed, not the variant).
llvm::Expected<RunVerdict> compareRuns(const Workload &W, const RunResult &Candidate,
                                       BufferComparer Compare);

} // namespace kopt::evaluator
