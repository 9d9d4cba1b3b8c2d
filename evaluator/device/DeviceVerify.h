// Input generation and output comparison on the device, with the session's
// kernels (DeviceKernels.h): only the comparison's per-block partial results
// and the two reported elements come back to the host, so verifying a
// multi-gigabyte buffer costs a pass over device memory, not a copy.
#pragma once

#include "evaluator/device/DeviceKernels.h"
#include "evaluator/workload/OutputComparison.h"
#include "evaluator/workload/Workload.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>

namespace kopt::evaluator {

// The comparison kernel's blocks reduced: the total count, the smallest
// mismatching index, and the index of the largest ratio (the smallest such
// index on ties, as compareBuffers picks it).
struct ReducedPartials {
  uint64_t Mismatches = 0;
  std::optional<uint64_t> First, Worst;
  double WorstRatio = 0;
};
ReducedPartials reducePartials(llvm::ArrayRef<ComparePartial> Partials);

struct DeviceContext {
  CudaDriver &Driver;
  const DeviceKernels &Kernels;
  CUstream Stream;
  CUdeviceptr Partials; // CompareBlocks ComparePartials.
};

// Fills Count elements at Out with the stream Key (InputGenerator.h), in
// Range or as Offsets where given; queued on the stream.
llvm::Error generateOnDevice(const DeviceContext &C, CUdeviceptr Out, ScalarType Type,
                             uint64_t Count, uint64_t Key,
                             const std::optional<ValueRange> &Range = std::nullopt,
                             const std::optional<OffsetsLayout> &Offsets = std::nullopt,
                             const std::optional<LocalIndices> &Local = std::nullopt);

// compareBuffers(Type, Got, Expected, Count, Tol) on the device. Expected 0:
// the generator's stream Key (in Range or as Offsets where given) is the expectation.
// Bytewise: any differing byte is a mismatch (for buffers that must stay as
// they were). Waits for the stream.
llvm::Expected<BufferComparison>
compareOnDevice(const DeviceContext &C, CUdeviceptr Got, CUdeviceptr Expected, uint64_t Key,
                ScalarType Type, uint64_t Count, const Tolerance &Tol, bool Bytewise,
                const std::optional<ValueRange> &Range = std::nullopt,
                const std::optional<OffsetsLayout> &Offsets = std::nullopt,
                const std::optional<LocalIndices> &Local = std::nullopt);

} // namespace kopt::evaluator
