// How the element a read takes follows the reading thread's position, over the
// index polynomials of IndexPolynomial.h: A[(i + 1) * n + j - 1] is
// Rest + n * g_y + 1 * g_x with Rest = n - 1, and its offset from A[i * n + j]
// is (x -1, y +1). Stencil features and transforms share it.
#pragma once

#include "clang-plugin/analysis/IndexPolynomial.h"

#include <array>
#include <functional>
#include <optional>

namespace kopt::frontend {

// The index as Rest + sum over the thread dimensions of Stride[c] * C_c, where
// C_c is g_c or, where Clamp[c] is an atom id, that opaque atom (an expression
// of g_c alone, such as max(x - 1, 0)). Stride is uniform over the block; Rest
// holds uniform terms and loop variables.
struct AccessForm {
  std::array<IndexPoly, 3> Stride;
  std::array<int, 3> Clamp{-1, -1, -1};
  IndexPoly Rest;
};

enum class AccessShape : uint8_t {
  Follows,   // An AccessForm.
  Partial,   // Some thread dimension does not move the element (a row or column vector).
  Irregular, // The index depends on positions some other way (i * i, i / 2 + j).
};

// P's shape for the thread dimensions Dims; Form is set for Follows.
AccessShape accessShape(const IndexPoly &P, unsigned Dims, IndexPolyBuilder &B, AccessForm &Form);

// Offsets Delta (polynomials in loop variables) with D = sum of Stride[c] *
// Delta[c] over Dims. Symbolic strides (n, n + 1, nx * ny) decide each offset
// by their own terms; dimensions left with numeric strides take the offsets of
// least magnitude, largest stride first. Empty where no such offsets exist,
// where symbolic strides leave them ambiguous, or where D holds anything but
// uniform terms and loop variables.
std::optional<std::array<IndexPoly, 3>> splitOffsets(const IndexPoly &D,
                                                     const std::array<IndexPoly, 3> &Stride,
                                                     unsigned Dims, const IndexPolyBuilder &B);

// The smallest and largest value of P, a sum of loop variables times integers
// plus a constant, over the ranges Range gives each loop variable (by atom id);
// empty where P is anything else.
std::optional<std::pair<int64_t, int64_t>>
offsetRange(const IndexPoly &P, const IndexPolyBuilder &B,
            const std::function<std::optional<std::pair<int64_t, int64_t>>(unsigned)> &Range);

} // namespace kopt::frontend
