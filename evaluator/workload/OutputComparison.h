// Compares a variant's buffer with the original's, element by element:
// |got - expected| <= atol + rtol * |expected| for floating types, exact for
// integers, and a NaN or infinity passes only where the reference has the same.
#pragma once

#include "evaluator/workload/Workload.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kopt::evaluator {

struct ElementMismatch {
  uint64_t Index = 0;
  double Got = 0, Expected = 0;
  double Ratio = 0; // |got - expected| / (atol + rtol * |expected|); inf for class mismatches.
};

struct BufferComparison {
  uint64_t Mismatches = 0;
  std::optional<ElementMismatch> First, Worst; // Worst: the largest Ratio.
  bool passed() const { return Mismatches == 0; }
};

BufferComparison compareBuffers(ScalarType Element, const uint8_t *Got, const uint8_t *Expected,
                                uint64_t Count, const Tolerance &Tol);

// "element 1234 is 5.000000e+00, expected 4.000000e+00 (|d| = 1e+00, 1.2e+04 x the tolerance)"
std::string describeMismatch(const ElementMismatch &M);

// The first byte of a guard zone that is not GuardByte, or empty.
std::optional<uint64_t> firstDamagedGuardByte(const uint8_t *Guard, uint64_t Size);

} // namespace kopt::evaluator
