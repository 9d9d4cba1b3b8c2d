#include "evaluator/workload/Workload.h"

#include <cstdio>

namespace kopt::evaluator {

const char *directionName(Direction D) {
  return D == Direction::In ? "in" : D == Direction::Out ? "out" : "inout";
}

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

namespace kopt::evaluator {

std::string RecordedLaunch::describe() const {
  std::string Out(1, '#');
  Out.append(std::to_string(Id)).append(" (");
  for (const KernelArg &A : Args)
    if (const ScalarArg *S = A.scalar()) {
      char Value[32];
      std::snprintf(Value, sizeof(Value), "%.17g", S->Value);
      Out.append(A.Name).append(" = ").append(Value).append("; ");
    }
  char Dims[96];
  std::snprintf(Dims, sizeof(Dims), "grid(%u,%u,%u) block(%u,%u,%u))", Launch.Grid[0],
                Launch.Grid[1], Launch.Grid[2], Launch.Block[0], Launch.Block[1], Launch.Block[2]);
  return Out.append(Dims);
}

} // namespace kopt::evaluator
