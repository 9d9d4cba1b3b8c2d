#include "evaluator/RunComparison.h"

#include <algorithm>

namespace kopt::evaluator {

RunVerdict compareRuns(const Workload &W, const RunResult &Reference, const RunResult &Candidate) {
  RunVerdict V;
  size_t Index = 0;
  for (const KernelArg &A : W.Args) {
    const BufferArg *B = A.buffer();
    if (!B)
      continue;
    const BufferState &Ref = Reference.Buffers.at(Index);
    const BufferState &Got = Candidate.Buffers.at(Index);
    ++Index;
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
    Tolerance Tol = W.Tol ? *W.Tol : defaultTolerance(B->Element);
    if (B->Dir == Direction::In)
      Tol = Tolerance{0, 0}; // Inputs must stay bit for bit as they were.
    BufferComparison C =
        compareBuffers(B->Element, Got.Data.data(), Ref.Data.data(), B->Count, Tol);
    if (C.Worst)
      V.WorstRatio = std::max(V.WorstRatio, C.Worst->Ratio);
    if (!C.passed()) {
      V.Worst = C.Worst;
      V.Mismatches = C.Mismatches;
      std::string What = B->Dir == Direction::In ? "changed input buffer '" : "buffer '";
      return Fail(What + A.Name + "': " + std::to_string(C.Mismatches) + " of " +
                  std::to_string(B->Count) + " elements differ; worst " +
                  describeMismatch(*C.Worst));
    }
  }
  V.Passed = true;
  return V;
}

} // namespace kopt::evaluator
