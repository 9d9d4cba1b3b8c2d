#include "agents/LlmTrajectory.h"

#include <llvm/Support/FormatVariadic.h>

namespace kopt::agents {

using evaluator::Verdict;

namespace {
// Compile logs run to pages; the debugger needs the first errors.
constexpr size_t MaxLogChars = 6000, MaxDetailChars = 200;

std::string clipped(llvm::StringRef Text, size_t Max) {
  Text = Text.trim();
  if (Text.size() <= Max)
    return Text.str();
  return Text.take_front(Max).str() + " [...]";
}

std::string firstLine(llvm::StringRef Text) {
  return clipped(Text.trim().split('\n').first, MaxDetailChars);
}
} // namespace

TrajectoryStep trajectoryStep(const Attempt &A, const evaluator::VariantOutcome *Outcome) {
  TrajectoryStep T;
  T.Variant = A.Hash;
  T.Skill = A.Steps.empty() ? "" : A.Steps.back();
  T.Outcome = evaluator::spelling(A.Result).str();
  if (A.Result == Verdict::Faster || A.Result == Verdict::NotFaster)
    T.Outcome += llvm::formatv(" {0:f2}x", A.Speedup).str();
  else if (!A.Detail.empty())
    T.Outcome += ": " + firstLine(A.Detail);
  if (Outcome && Outcome->Variant.MedianMs > 0 &&
      (A.Result == Verdict::Faster || A.Result == Verdict::NotFaster))
    T.TimeMs = Outcome->Variant.MedianMs;
  return T;
}

std::optional<std::string> failureForDebugger(const evaluator::VariantOutcome &O) {
  switch (O.Result) {
  case Verdict::Faster:
  case Verdict::NotFaster:
  case Verdict::Promising: // Verified: nothing to repair.
    return std::nullopt;
  case Verdict::CompileError:
    return "The variant does not compile" +
           (O.Compile.Compiler.empty() ? "" : " (" + O.Compile.Compiler + ")") + ":\n" +
           clipped(O.Compile.Log.empty() ? O.Detail : O.Compile.Log, MaxLogChars);
  case Verdict::Wrong:
    return "The variant compiles but its results differ from the original kernel's: " +
           clipped(O.Detail, MaxLogChars);
  case Verdict::LaunchRejected:
    return "The variant's launch failed (resources or block size): " +
           clipped(O.Detail, MaxLogChars);
  case Verdict::Crashed:
    return "The variant faulted on the GPU: " + clipped(O.Detail, MaxLogChars);
  case Verdict::TimedOut:
    return "The variant ran far longer than the original and was stopped: " +
           clipped(O.Detail, MaxLogChars);
  }
  return std::nullopt;
}

} // namespace kopt::agents
