// pow(x, n) with a literal integer exponent n from 2 to 16 (pow, powf,
// std::pow; 2, 2.0, 2.0f): nvcc calls its general pow for these (a logarithm
// and an exponential, ~130 PTX instructions in double, ~200 for powf:
// measured on CUDA 13 at -O3), where squarings and products (at most 6 for
// n <= 16) give the result within a few ulp. The front end counts them
// (KernelFeatures::IntegerPowers) and strength-reduction expands them: one recogniser for both.
#pragma once

#include <optional>
#include <string>

namespace clang {
class CallExpr;
class Expr;
} // namespace clang

namespace kopt::frontend {

inline constexpr unsigned MaxExpandedPower = 16;

// The exponent of such a call, whose result is floating; nullopt for any other call.
std::optional<unsigned> smallIntegerPower(const clang::CallExpr &Call);

// Any other pow(x, e) with a floating result: a runtime, fractional, negative
// or large exponent (pow-specialize tries the exponents applications pass most).
bool isOtherPower(const clang::CallExpr &Call);

// The type a pow call computes in, as nvcc's <cmath> has it: "float" for
// powf, and for pow where both arguments are float; "long double" where one
// is; else "double" (an int exponent makes pow(float, int) double, where
// clang's CUDA headers have a float overload).
std::string powComputedType(const clang::CallExpr &Call);

// The type of a pow call's argument as written (implicit conversions looked
// through), spelled as powComputedType spells types: where they differ, a
// rewrite that keeps the call's type casts the argument.
std::string powArgumentType(const clang::Expr &Arg);

} // namespace kopt::frontend
