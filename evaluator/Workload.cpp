#include "evaluator/Workload.h"

namespace kopt::evaluator {

Tolerance defaultTolerance(ScalarType T) {
  switch (T) {
  case ScalarType::F16:
    return {1e-2, 1e-3};
  case ScalarType::BF16:
    return {2e-2, 1e-2};
  case ScalarType::F32:
    return {1e-4, 1e-5};
  case ScalarType::F64:
    return {1e-10, 1e-12};
  default:
    return {0, 0}; // Integers compare exactly.
  }
}

uint64_t Workload::bufferBytes() const {
  uint64_t Bytes = 0;
  for (const KernelArg &A : Args)
    if (const BufferArg *B = A.buffer())
      Bytes += B->Count * sizeOf(B->Element);
  return Bytes;
}

} // namespace kopt::evaluator
