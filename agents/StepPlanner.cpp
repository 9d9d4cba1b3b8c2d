#include "agents/StepPlanner.h"

#include <llvm/ADT/STLExtras.h>

#include <algorithm>
#include <cmath>

namespace kopt::agents {

namespace {
// A transform without a skill file: tried, after those that expect more.
constexpr memory::Yield UnknownStep{0.2, 1.1};
// Each later point of a transform's own order counts a little less.
constexpr double PointDecay = 0.97;
// Evidence about a transform's other points, against that of this point.
constexpr double OtherPointsWeight = 0.5;
// A forced step's bonus: above any expected log speedup.
constexpr double ForcedBonus = 100;

memory::Evidence scaled(const memory::Evidence &E, double W) {
  return {E.Tries * W, E.Wins * W, E.SumLogGain * W};
}
} // namespace

std::string paramsText(const transform::ParamSet &P) {
  std::string Text;
  for (const auto &[Name, Value] : P)
    Text += (Text.empty() ? "" : ",") + Name + "=" + std::to_string(Value);
  return Text;
}

StepPlanner::StepPlanner(PlanInputs Inputs, const frontend::KernelFeatures &Original,
                         std::vector<std::string> ForcedIds)
    : In(std::move(Inputs)), Forced(std::move(ForcedIds)),
      Vector(memory::factVector(memory::factsFor(Original, In.Metrics))) {
  if (!In.Experience)
    return;
  for (const memory::Observation &O : In.Experience->observations()) {
    double Weight = memory::observationWeight(O, Vector, In.Device);
    if (Weight > 0)
      Earlier[O.Skill][O.Params].add(Weight, memory::isWin(O), O.Gain);
  }
}

memory::Facts StepPlanner::factsOf(const frontend::KernelFeatures &Node) const {
  return memory::factsFor(Node, In.Metrics);
}

const memory::Skill *StepPlanner::skillOf(llvm::StringRef Transform) const {
  if (!In.Skills)
    return nullptr;
  const memory::Skill *S = In.Skills->find(Transform);
  return S && S->Transform && *S->Transform == Transform ? S : nullptr;
}

std::vector<std::string> StepPlanner::enablersOf(llvm::StringRef Transform) const {
  std::vector<std::string> Ids;
  if (In.Skills)
    for (const memory::Skill &S : In.Skills->skills())
      if (S.Transform && llvm::is_contained(S.Enables, Transform.str()))
        Ids.push_back(*S.Transform);
  return Ids;
}

memory::Yield StepPlanner::prior(llvm::StringRef Transform, const memory::Facts &NodeFacts) const {
  const memory::Skill *S = skillOf(Transform);
  return S ? memory::priorYield(*S, NodeFacts) : UnknownStep;
}

memory::Evidence StepPlanner::evidence(llvm::StringRef Transform, const std::string &Params) const {
  memory::Evidence This, Others;
  if (In.Experience) {
    memory::Evidence All = In.Experience->evidenceFor(Transform, std::nullopt, Vector, In.Device);
    This = In.Experience->evidenceFor(Transform, Params, Vector, In.Device);
    Others = {All.Tries - This.Tries, All.Wins - This.Wins, All.SumLogGain - This.SumLogGain};
  }
  if (auto It = Tried.find(Transform); It != Tried.end())
    for (const auto &[P, E] : It->second)
      (P == Params ? This : Others).add(E);
  This.add(scaled(Others, OtherPointsWeight));
  return This;
}

double StepPlanner::value(const transform::Transform &T, const transform::ParamSet &Point,
                          size_t Index, const memory::Facts &NodeFacts, BlockedFn Blocked) const {
  llvm::StringRef Id = T.id();
  memory::Yield Y = posterior(Id, Point, NodeFacts);
  double V = Y.value() * std::pow(PointDecay, static_cast<double>(Index));
  // A normalization that may unblock an idiom transform is worth that too.
  if (const memory::Skill *S = skillOf(Id)) {
    double Unblocked = 0;
    for (const std::string &Enabled : S->Enables)
      if (Blocked(Enabled))
        Unblocked = std::max(
            Unblocked,
            memory::posteriorYield(prior(Enabled, NodeFacts), evidence(Enabled, "")).value());
    V += Y.Likelihood * Unblocked;
  }
  if (llvm::is_contained(Forced, Id.str()))
    V += ForcedBonus;
  return V;
}

double StepPlanner::winGain(const transform::Transform &T, const transform::ParamSet &Point,
                            const memory::Facts &NodeFacts) const {
  return std::log(std::max(1.0, posterior(T.id(), Point, NodeFacts).Speedup));
}

memory::Yield StepPlanner::posterior(llvm::StringRef Transform, const transform::ParamSet &Point,
                                     const memory::Facts &NodeFacts) const {
  return memory::posteriorYield(prior(Transform, NodeFacts),
                                evidence(Transform, paramsText(Point)));
}

void StepPlanner::observe(llvm::StringRef Transform, const transform::ParamSet &Point, bool Win,
                          double Gain) {
  Tried[Transform.str()][paramsText(Point)].add(1, Win, Gain);
}

memory::Outcome experienceOutcome(evaluator::Verdict V) {
  switch (V) {
  case evaluator::Verdict::Faster:
    return memory::Outcome::Faster;
  case evaluator::Verdict::NotFaster:
  case evaluator::Verdict::Promising: // Never confirmed: no win.
    return memory::Outcome::NotFaster;
  case evaluator::Verdict::CompileError:
    return memory::Outcome::CompileError;
  case evaluator::Verdict::Crashed:
  case evaluator::Verdict::TimedOut:
  case evaluator::Verdict::LaunchRejected:
    return memory::Outcome::Crashed;
  case evaluator::Verdict::Wrong:
    return memory::Outcome::Wrong;
  }
  return memory::Outcome::Wrong;
}

std::vector<memory::Observation> observationsFrom(const OptimizeResult &O,
                                                  const memory::FactVector &Facts,
                                                  llvm::StringRef Kind, bool VerifiedOnly) {
  std::vector<memory::Observation> Out;
  for (const Attempt &A : O.Trajectory) {
    bool Verified = A.Result == evaluator::Verdict::Faster ||
                    A.Result == evaluator::Verdict::NotFaster ||
                    A.Result == evaluator::Verdict::Promising;
    if (A.Steps.empty() || (VerifiedOnly && !Verified))
      continue;
    auto [Skill, Params] = llvm::StringRef(A.Varied.empty() ? A.Steps.back() : A.Varied).split(':');
    memory::Observation Obs;
    Obs.Skill = Skill.str();
    Obs.Params = Params.str();
    Obs.Kind = Kind.str();
    Obs.Device = O.Original.Device.Name;
    Obs.Facts = Facts;
    Obs.Result = experienceOutcome(A.Result);
    Obs.Gain = A.ParentSpeedup > 0 ? A.Speedup / A.ParentSpeedup : 0;
    Out.push_back(std::move(Obs));
  }
  return Out;
}

} // namespace kopt::agents
