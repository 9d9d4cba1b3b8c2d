#include "evaluator/device/RunComparison.h"

#include <algorithm>

namespace kopt::evaluator {

Tolerance chainTolerance(const Tolerance &PerLaunch, unsigned Launches) {
  double N = std::max(Launches, 1u);
  return Tolerance{PerLaunch.Rtol * N, PerLaunch.Atol * N};
}

llvm::Expected<RunVerdict> compareRuns(const Workload &W, const RunResult &Candidate,
                                       BufferComparer Compare) {
  RunVerdict V;
  size_t Index = 0;
  for (const KernelArg &A : W.Args) {
    const BufferArg *B = A.buffer();
    if (!B)
      continue;
    const BufferState &Got = Candidate.Buffers.at(Index);
    size_t This = Index++;
    auto Fail = [&](std::string Why) {
      V.Passed = false;
      V.Buffer = A.Name;
      V.Failure = std::move(Why);
      return V;
    };
    if (Got.DamagedBefore)
      return Fail("wrote out of bounds: " + std::to_string(GuardBytes - *Got.DamagedBefore) +
                  " bytes before the start of buffer '" + A.Name + "'");
    if (Got.DamagedAfter)
      return Fail("wrote out of bounds: byte " + std::to_string(*Got.DamagedAfter) +
                  " past the end of buffer '" + A.Name + "'");
    Tolerance Tol = chainTolerance(B->Tol  ? *B->Tol
                                   : W.Tol ? *W.Tol
                                           : defaultTolerance(B->Element),
                                   Candidate.Launches);
    if (B->Dir == Direction::In)
      Tol = Tolerance{0, 0}; // Inputs must stay byte for byte as they were.
    auto C = Compare(This, *B, Tol);
    if (!C)
      return C.takeError();
    if (C->Worst && B->Dir != Direction::In)
      V.WorstRatio = std::max(V.WorstRatio, C->Worst->Ratio);
    if (!C->passed()) {
      V.First = C->First;
      V.Worst = C->Worst;
      V.Mismatches = C->Mismatches;
      std::string What = B->Dir == Direction::In ? "changed input buffer '" : "buffer '";
      std::string Text = What + A.Name + "': " + std::to_string(C->Mismatches) + " of " +
                         std::to_string(B->Count) + " elements differ; worst " +
                         describeMismatch(*C->Worst);
      if (C->First && C->First->Index != C->Worst->Index)
        Text += "; first " + describeMismatch(*C->First);
      return Fail(std::move(Text));
    }
  }
  V.Passed = true;
  return V;
}

} // namespace kopt::evaluator
