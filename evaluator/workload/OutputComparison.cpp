#include "evaluator/workload/OutputComparison.h"

#include "evaluator/workload/InputGenerator.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace kopt::evaluator {

namespace {
// How far Got is from Expected in units of the tolerance; > 1 fails.
double mismatchRatio(double Got, double Expected, const Tolerance &Tol) {
  if (std::isnan(Expected) || std::isnan(Got))
    return std::isnan(Expected) && std::isnan(Got) ? 0 : std::numeric_limits<double>::infinity();
  if (std::isinf(Expected) || std::isinf(Got))
    return Got == Expected ? 0 : std::numeric_limits<double>::infinity();
  double Diff = std::fabs(Got - Expected);
  double Bound = Tol.Atol + Tol.Rtol * std::fabs(Expected);
  if (Diff == 0)
    return 0;
  if (Bound == 0)
    return std::numeric_limits<double>::infinity();
  return Diff / Bound;
}
} // namespace

BufferComparison compareBuffers(ScalarType Element, const uint8_t *Got, const uint8_t *Expected,
                                uint64_t Count, const Tolerance &Tol) {
  BufferComparison Result;
  size_t Size = sizeOf(Element);
  bool Exact = !isFloating(Element);
  for (uint64_t I = 0; I < Count; ++I) {
    const uint8_t *G = Got + I * Size, *E = Expected + I * Size;
    if (std::memcmp(G, E, Size) == 0)
      continue; // Bitwise equal: passes for every type (NaN payloads included).
    double GV = loadAsDouble(Element, G), EV = loadAsDouble(Element, E);
    double Ratio = Exact ? std::numeric_limits<double>::infinity() : mismatchRatio(GV, EV, Tol);
    if (!Exact && Ratio <= 1)
      continue;
    ElementMismatch M{I, GV, EV, Ratio};
    ++Result.Mismatches;
    if (!Result.First)
      Result.First = M;
    if (!Result.Worst || Ratio > Result.Worst->Ratio)
      Result.Worst = M;
  }
  return Result;
}

std::string describeMismatch(const ElementMismatch &M) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "element " << M.Index << " is " << llvm::format("%.6e", M.Got) << ", expected "
     << llvm::format("%.6e", M.Expected);
  if (std::isfinite(M.Ratio))
    OS << " (|d| = " << llvm::format("%.3e", std::fabs(M.Got - M.Expected)) << ", "
       << llvm::format("%.3g", M.Ratio) << " x the tolerance)";
  return Text;
}

std::optional<uint64_t> firstDamagedGuardByte(const uint8_t *Guard, uint64_t Size) {
  for (uint64_t I = 0; I < Size; ++I)
    if (Guard[I] != GuardByte)
      return I;
  return std::nullopt;
}

} // namespace kopt::evaluator
