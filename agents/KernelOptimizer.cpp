#include "agents/KernelOptimizer.h"

#include "agents/VariantReviewer.h"
#include "clang-plugin/transforms/Transform.h"
#include "clang-plugin/units/LaunchMappingEval.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <chrono>
#include <set>

namespace kopt::agents {

using evaluator::Verdict;

namespace {
using Clock = std::chrono::steady_clock;

// The planner's default order when no experience says otherwise: the row
// mapping first (a thread-per-row kernel loses orders of magnitude, and the
// transform fits nothing else), then data movement (where naive kernels lose
// the most), then parallelism and launch shape, then instruction-level tweaks.
constexpr const char *DefaultOrder[] = {
    "row-cooperative", "register-blocking",  "smem-tiling",       "thread-mapping-swap",
    "vectorize",       "scalar-replacement", "thread-coarsening", "block-size",
    "unroll",          "restrict-readonly",  "launch-bounds",     "fast-math"};

std::string stepText(const transform::Step &S) {
  std::string Text = S.T->id().str();
  char Sep = ':';
  for (const auto &[Name, Value] : S.Params) {
    Text += Sep + Name + "=" + std::to_string(Value);
    Sep = ',';
  }
  return Text;
}

frontend::LaunchDims dimsOf(const evaluator::LaunchGeometry &G) {
  frontend::LaunchDims D;
  for (int I = 0; I < 3; ++I) {
    D.Grid[I] = G.Grid[I];
    D.Block[I] = G.Block[I];
  }
  D.SharedMem = G.SharedBytes;
  return D;
}

evaluator::LaunchGeometry geometryOf(const frontend::LaunchDims &D) {
  evaluator::LaunchGeometry G;
  for (int I = 0; I < 3; ++I) {
    G.Grid[I] = static_cast<uint32_t>(D.Grid[I]);
    G.Block[I] = static_cast<uint32_t>(D.Block[I]);
  }
  G.SharedBytes = static_cast<uint32_t>(D.SharedMem);
  return G;
}

frontend::IntBindings integerScalars(const evaluator::Workload &W) {
  frontend::IntBindings Ints;
  for (const evaluator::KernelArg &A : W.Args)
    if (const evaluator::ScalarArg *S = A.scalar(); S && !evaluator::isFloating(S->Type))
      Ints[A.Name] = static_cast<int64_t>(S->Value);
  return Ints;
}

struct Node {
  std::vector<transform::Step> Chain;
  std::string UnitText;
  std::optional<frontend::LaunchMapping> Launch;
  double Speedup = 1;
};

// The transforms in the order the planner tries them.
std::vector<const transform::Transform *>
plannedTransforms(const OptimizeRequest &R, const std::vector<std::string> &Ranked) {
  std::vector<const transform::Transform *> Order;
  auto Add = [&](llvm::StringRef Id) {
    const transform::Transform *T = transform::findTransform(Id);
    if (!T || llvm::is_contained(R.Disabled, Id.str()) || llvm::is_contained(Order, T))
      return;
    Order.push_back(T);
  };
  for (const std::string &Id : R.Forced)
    Add(Id);
  for (const std::string &Id : Ranked)
    Add(Id);
  for (const char *Id : DefaultOrder)
    Add(Id);
  for (const auto &T : transform::allTransforms())
    Add(T->id());
  return Order;
}
} // namespace

llvm::Expected<frontend::KernelVariant>
variantFromUnit(const frontend::KernelSummary &Original, llvm::StringRef UnitText,
                const std::optional<frontend::LaunchMapping> &Launch,
                const std::vector<std::string> &ClangArgs) {
  auto Summary = transform::summarizeUnit(UnitText, Original.Name, ClangArgs, Original.Pragma);
  if (!Summary)
    return Summary.takeError();
  const frontend::SourceSpan &New = Summary->Unit.Definition;
  auto OriginalSummary =
      transform::summarizeUnit(Original.Unit.Text, Original.Name, ClangArgs, Original.Pragma);
  if (!OriginalSummary)
    return OriginalSummary.takeError();
  const frontend::SourceSpan &Old = OriginalSummary->Unit.Definition;
  llvm::StringRef OldText = Original.Unit.Text;
  if (UnitText.substr(0, New.Begin) != OldText.substr(0, Old.Begin) ||
      UnitText.substr(New.End) != OldText.substr(Old.End))
    return llvm::createStringError("the variant changes code outside the kernel's definition");
  frontend::KernelVariant V;
  V.KernelName = Original.Name;
  V.Code = UnitText.substr(New.Begin, New.End - New.Begin).str();
  if (Launch) {
    // A variant that remaps the launch is a new kernel beside the original.
    llvm::StringRef Qualified = Original.Name;
    auto [Scope, Short] = Qualified.rsplit("::");
    if (Short.empty())
      std::swap(Scope, Short);
    size_t Global = V.Code.find("__global__");
    size_t At = V.Code.find(Short.str(), Global == std::string::npos ? 0 : Global);
    if (At == std::string::npos)
      return llvm::createStringError("cannot find the kernel's name in the variant");
    V.Code.insert(At + Short.size(), "_kopt");
    V.VariantName = (Scope.empty() ? "" : Scope.str() + "::") + Short.str() + "_kopt";
    V.Launch = Launch;
  }
  return V;
}

llvm::Expected<OptimizeResult> optimizeKernel(const OptimizeRequest &R,
                                              evaluator::VariantEvaluator &Eval,
                                              const ProgressFn &Progress) {
  const frontend::KernelSummary &K = *R.Kernel;
  auto Start = Clock::now();
  auto Elapsed = [&] { return std::chrono::duration<double>(Clock::now() - Start).count(); };
  auto Source = [&](const std::string &Code) {
    return evaluator::KernelSource{Code, K.Name, K.MangledName, R.CompileOptions};
  };

  OptimizeResult Result;
  auto Base = Eval.setOriginal(Source(K.Unit.Text), R.Work);
  if (!Base)
    return Base.takeError();
  Result.Original = *Base;

  const frontend::LaunchDims OriginalDims = dimsOf(R.Work.Launch);
  const frontend::IntBindings Scalars = integerScalars(R.Work);
  std::vector<const transform::Transform *> Planned =
      plannedTransforms(R, R.Rank ? R.Rank(*Base) : R.Ranked);
  std::set<std::string> Seen = {variantHash(K.Unit.Text, std::nullopt)};
  std::set<std::string> FailedSteps; // Short-term memory of dead ends.
  std::vector<Node> Frontier = {Node{{}, K.Unit.Text, std::nullopt, 1.0}};
  double BestSpeedup = 1;
  std::optional<Node> Best;
  unsigned Evaluations = 0;
  auto OutOfBudget = [&] {
    return Evaluations >= R.Budget.Evaluations || Elapsed() >= R.Budget.Seconds;
  };

  while (!Frontier.empty() && !OutOfBudget()) {
    // Best first: expand the fastest verified variant found so far.
    auto It = std::max_element(Frontier.begin(), Frontier.end(),
                               [](const Node &A, const Node &B) { return A.Speedup < B.Speedup; });
    Node Current = std::move(*It);
    Frontier.erase(It);
    if (Current.Chain.size() >= R.Budget.MaxDepth)
      continue;
    std::optional<frontend::PragmaClauses> Pragma = K.Pragma;
    if (Pragma && Current.Launch)
      Pragma = transform::pragmaAfterLaunch(*Pragma, *Current.Launch);
    auto View = transform::summarizeUnit(Current.UnitText, K.Name, R.ClangArgs, Pragma);
    if (!View) {
      llvm::consumeError(View.takeError());
      continue;
    }
    for (const transform::Transform *T : Planned) {
      std::vector<transform::ParamSet> Points = T->parameterSpace(*View);
      if (Points.size() > R.Budget.PointsPerStep)
        Points.resize(R.Budget.PointsPerStep);
      for (const transform::ParamSet &P : Points) {
        if (OutOfBudget())
          break;
        transform::Step S{T, P};
        std::string Key = stepText(S);
        if (FailedSteps.count(Key))
          continue;
        std::vector<transform::Step> Chain = Current.Chain;
        Chain.push_back(S);
        auto Made = transform::applyChain(K, R.ClangArgs, Chain);
        if (!Made) { // The transform does not fit this code: not an attempt.
          llvm::consumeError(Made.takeError());
          FailedSteps.insert(Key);
          continue;
        }
        std::string Hash = variantHash(Made->UnitText, Made->Launch);
        if (!Seen.insert(Hash).second)
          continue;
        Attempt A;
        for (const transform::Step &Done : Chain)
          A.Steps.push_back(stepText(Done));
        A.Hash = Hash;
        evaluator::LaunchGeometry Launch = R.Work.Launch;
        std::string Rejected = reviewVariantSource(K.Unit.Text, Made->UnitText);
        if (Rejected.empty() && Made->Launch) {
          auto Dims = frontend::evaluateLaunchMapping(*Made->Launch, OriginalDims, Scalars);
          if (Dims)
            Launch = geometryOf(*Dims);
          else
            Rejected = "its launch mapping does not evaluate: " + llvm::toString(Dims.takeError());
        }
        evaluator::VariantOutcome Outcome;
        if (!Rejected.empty()) {
          Outcome.Result = Verdict::Wrong;
          Outcome.Detail = "rejected by the reviewer: " + Rejected;
        } else {
          auto O = Eval.evaluate(Source(Made->UnitText), Launch);
          if (!O)
            return O.takeError();
          Outcome = *O;
          ++Evaluations;
        }
        A.Result = Outcome.Result;
        A.Detail = Outcome.Detail;
        A.Speedup = Outcome.Speedup;
        A.Seconds = Elapsed();
        if (Outcome.Result == Verdict::Faster) {
          Node Child{Chain, Made->UnitText, Made->Launch, Outcome.Speedup};
          if (Outcome.Speedup > BestSpeedup) {
            BestSpeedup = Outcome.Speedup;
            Best = Child;
            Result.BestOutcome = Outcome;
            Result.BestSteps = A.Steps;
          }
          Frontier.push_back(std::move(Child));
        } else if (Outcome.Result != Verdict::NotFaster) {
          FailedSteps.insert(Key);
        }
        Result.Trajectory.push_back(A);
        if (Progress)
          Progress(A, Evaluations, BestSpeedup);
      }
    }
  }

  if (Best && BestSpeedup > ReverifyAbove) {
    auto Again = reverifyOnFreshInputs(
        Eval, Source(Best->UnitText),
        Best->Launch ? geometryOf(llvm::cantFail(
                           frontend::evaluateLaunchMapping(*Best->Launch, OriginalDims, Scalars)))
                     : R.Work.Launch);
    if (!Again)
      return Again.takeError();
    if (*Again != Verdict::Faster)
      Best.reset();
  }
  if (Best) {
    auto V = variantFromUnit(K, Best->UnitText, Best->Launch, R.ClangArgs);
    if (!V)
      return V.takeError();
    Result.Best = *V;
  }
  if (Evaluations >= R.Budget.Evaluations)
    Result.StopReason = "evaluation budget spent";
  else if (Elapsed() >= R.Budget.Seconds)
    Result.StopReason = "time budget spent";
  Result.Seconds = Elapsed();
  return Result;
}

} // namespace kopt::agents
