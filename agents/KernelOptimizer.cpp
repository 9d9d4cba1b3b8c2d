#include "agents/KernelOptimizer.h"

#include "agents/EvaluationPace.h"
#include "agents/TransformNotes.h"
#include "agents/VariantReviewer.h"
#include "clang-plugin/transforms/framework/Transform.h"
#include "clang-plugin/transforms/normalize/Normalization.h"
#include "clang-plugin/units/LaunchMappingEval.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>

namespace kopt::agents {

using evaluator::Verdict;

namespace {
using Clock = std::chrono::steady_clock;

std::string stepText(const transform::Step &S) {
  std::string Params = paramsText(S.Params);
  return S.T->id().str() + (Params.empty() ? "" : ":" + Params);
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

frontend::IntBindings integerScalars(const std::vector<evaluator::KernelArg> &Args) {
  frontend::IntBindings Ints;
  for (const evaluator::KernelArg &A : Args)
    if (const evaluator::ScalarArg *S = A.scalar(); S && !evaluator::isFloating(S->Type))
      Ints[A.Name] = static_cast<int64_t>(S->Value);
  return Ints;
}

// A variant the search may extend: the original, or one verified faster (or
// one that unblocks a transform which did not fit its parent).
struct Node {
  std::vector<transform::Step> Chain;
  transform::ChainResult Made; // Its unit, launch mapping and pragma.
  double Speedup = 1;
  // The front end's view of Made.UnitText, parsed once: each step on this
  // node starts from it.
  std::shared_ptr<const frontend::KernelSummary> View;
  memory::Facts Facts;           // The planner's view of UnitText (its static facts).
  std::set<std::string> Blocked; // Transforms with no point that fits this variant.
  // Of those, the ones refused when applied, with the reason.
  std::map<std::string, std::string> Refused;
  // The node whose loops, indices and statements this one has (itself, or an
  // ancestor that only attributes, pragmas, intrinsics or __restrict__ lie
  // between): a transform refused there for its code is refused here too.
  size_t Root = SIZE_MAX;
  bool RestrictedSinceRoot = false; // Refusals for aliasing at Root do not hold here.
};

// Transforms that only add an attribute (__launch_bounds__), a pragma
// (#pragma unroll) or swap math calls for intrinsics: the kernel's loops,
// indices and aliasing stay as they were.
bool keepsStructure(llvm::StringRef Transform) {
  return Transform == "launch-bounds" || Transform == "unroll" || Transform == "fast-math";
}

// A refusal that __restrict__ on the pointers would answer ("'x' may alias
// 'y' (no noalias clause, not __restrict__)").
bool refusedForAliasing(llvm::StringRef Why) { return Why.contains("__restrict__"); }

// One step the planner may take: a transform at one point on one node.
struct Candidate {
  size_t NodeIndex;
  const transform::Transform *T;
  transform::ParamSet Point;
  size_t PointIndex; // In the transform's own order.
  // What the step must beat to count as a win: its node's speedup, or for a
  // retune of the best chain, the best's.
  double Reference = 1;
  // A retune of the best chain: the best's later steps, replayed after this
  // one (T at another point in place of the best's own).
  std::vector<transform::Step> Tail = {};
};

// How much a node's lag behind the best variant (in log speedup) counts
// against the steps on it: less than one for one, since a slower variant may
// still lead to a faster chain (an idiom its sibling hides).
constexpr double LagWeight = 0.5;

bool isWin(const evaluator::VariantOutcome &O, double ParentSpeedup) {
  return O.Result == Verdict::Faster && O.Speedup >= memory::MinWinGain * ParentSpeedup;
}

// Probed's key: the node and the step.
std::string probeKey(size_t NodeIndex, const transform::Step &S) {
  return std::to_string(NodeIndex) + "|" + stepText(S);
}

// What a variant that remaps the launch adds to the kernel's name: it is a new
// kernel beside the original.
constexpr llvm::StringLiteral VariantSuffix = "_kopt";

// Where the kernel's name Short ends in its definition Code (after __global__).
std::optional<size_t> nameEndIn(llvm::StringRef Code, llvm::StringRef Short) {
  size_t Global = Code.find("__global__");
  size_t At = Code.find(Short, Global == llvm::StringRef::npos ? 0 : Global);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  return At + Short.size();
}
} // namespace

llvm::Expected<frontend::KernelVariant>
variantFromUnit(const frontend::KernelSummary &Original, llvm::StringRef UnitText,
                const std::optional<frontend::LaunchMapping> &Launch,
                const std::vector<std::string> &ClangArgs) {
  auto Summary = transform::summarizeUnit(UnitText, Original.Name, ClangArgs, Original.Pragma,
                                          transform::analysedInstantiation(Original));
  if (!Summary)
    return Summary.takeError();
  const frontend::SourceSpan &New = Summary->Unit.Definition;
  auto OriginalSummary =
      transform::summarizeUnit(Original.Unit.Text, Original.Name, ClangArgs, Original.Pragma,
                               transform::analysedInstantiation(Original));
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
    llvm::StringRef Qualified = Original.Name;
    auto [Scope, Short] = Qualified.rsplit("::");
    if (Short.empty())
      std::swap(Scope, Short);
    std::optional<size_t> End = nameEndIn(V.Code, Short);
    if (!End)
      return llvm::createStringError("cannot find the kernel's name in the variant");
    V.Code.insert(*End, VariantSuffix.str());
    V.VariantName = (Scope.empty() ? "" : Scope.str() + "::") + Short.str() + VariantSuffix.str();
    V.Launch = Launch;
  }
  return V;
}

llvm::Expected<std::string> unitFromVariant(const frontend::KernelSummary &Original,
                                            const frontend::KernelVariant &V,
                                            const std::vector<std::string> &ClangArgs) {
  auto Summary =
      transform::summarizeUnit(Original.Unit.Text, Original.Name, ClangArgs, Original.Pragma,
                               transform::analysedInstantiation(Original));
  if (!Summary)
    return Summary.takeError();
  const frontend::SourceSpan &Old = Summary->Unit.Definition;
  std::string Code = V.Code;
  if (!V.VariantName.empty()) { // Named as the original again, where variantFromUnit renamed it.
    llvm::StringRef Short = frontend::unqualifiedName(V.VariantName);
    std::optional<size_t> End = nameEndIn(Code, Short);
    if (!End || !Short.ends_with(VariantSuffix))
      return llvm::createStringError("cannot find the variant's name in its code");
    Code.erase(*End - VariantSuffix.size(), VariantSuffix.size());
  }
  const std::string &Text = Original.Unit.Text;
  return Text.substr(0, Old.Begin) + Code + Text.substr(Old.End);
}

llvm::Expected<evaluator::VariantLaunch> variantLaunchFor(const evaluator::Workload &Work,
                                                          const frontend::LaunchMapping &Mapping) {
  auto Dims =
      frontend::evaluateLaunchMapping(Mapping, dimsOf(Work.Launch), integerScalars(Work.Args));
  if (!Dims)
    return Dims.takeError();
  evaluator::VariantLaunch Out(geometryOf(*Dims));
  for (const evaluator::RecordedLaunch &Rec : Work.Recorded) {
    auto Mapped =
        frontend::evaluateLaunchMapping(Mapping, dimsOf(Rec.Launch), integerScalars(Rec.Args));
    if (!Mapped)
      return llvm::createStringError("for recorded launch " + Rec.describe() + ": " +
                                     llvm::toString(Mapped.takeError()));
    Out.Recorded.push_back(geometryOf(*Mapped));
  }
  return Out;
}

namespace {
// The search's state: nodes, their candidate steps, short-term memory.
class Search {
public:
  Search(const OptimizeRequest &Request, evaluator::VariantEvaluator &Evaluator,
         const ProgressFn &Report)
      : R(Request), K(*Request.Kernel), Eval(Evaluator), Progress(Report) {}

  llvm::Expected<OptimizeResult> run();

private:
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - Start).count(); }
  bool outOfBudget() const {
    double Now = elapsed();
    return Evaluations >= R.Budget.Evaluations ||
           !mayEvaluate(Now, Now - LoopStart, Evaluations, R.Budget.Seconds);
  }
  // Whether the evaluation about to start is one the time budget alone would
  // not allow (a kernel's first MinEvaluations); said once in the result.
  void noteOverrun() {
    double Now = elapsed();
    if (!Result.BudgetNote.empty() ||
        nextEvaluationFits(Now, Now - LoopStart, Evaluations, R.Budget.Seconds))
      return;
    Result.BudgetNote = llvm::formatv("the {0:f0} s budget leaves no time for evaluation {1} "
                                      "(measuring the original took {2:f1} s); every kernel "
                                      "gets {3}, so kopt spends what they take",
                                      R.Budget.Seconds, Evaluations + 1, LoopStart, MinEvaluations)
                            .str();
  }
  evaluator::KernelSource source(const std::string &Code) const {
    return evaluator::KernelSource{Code, R.NameExpression.empty() ? K.Name : R.NameExpression,
                                   R.NameExpression.empty() ? K.MangledName : R.MangledName,
                                   R.CompileOptions};
  }
  // Adds a node and its candidate steps (the transforms' points on its code,
  // in the planner's order, PointsPerStep of each; the rest, and the steps of
  // a node at MaxDepth, are deferred to widen()).
  void addNode(Node N);
  // When the chains run out of steps with budget left: the deferred points
  // of every node, and the best chain retuned (each of its steps at its
  // transform's other points, the later steps replayed). False where there
  // is nothing left to try.
  bool widen();
  void addRetunesOfBest();
  // Tail replayed after a step that made Made; fails where a step no longer fits.
  llvm::Expected<transform::ChainResult> replay(transform::ChainResult Made,
                                                const std::vector<transform::Step> &Tail);
  std::optional<size_t> pickCandidate();
  // Step S applied to node N's code; a refusal is counted, with its time.
  llvm::Expected<transform::ChainResult> applyCounted(const Node &N, const transform::Step &S);
  // Counts one apply that began at Before (elapsed()), and whether it fitted.
  void countApply(double Before, bool Fitted);
  // S on node NodeIndex: what its probe made, where addNode probed it, else applied now.
  llvm::Expected<transform::ChainResult> probedOrApplied(size_t NodeIndex,
                                                         const transform::Step &S);
  // Whether Transform fits no point of N: its own refusals and its root's.
  bool blocked(const Node &N, llvm::StringRef Transform) const;
  // N refused Transform for its code: so do N's root and the nodes that share it.
  void refuse(Node &N, const std::string &Transform, const std::string &Why);
  // Applies, reviews and evaluates one candidate; false where it did not fit.
  llvm::Expected<bool> tryCandidate(const Candidate &C);
  // Screen, then confirm a promising variant that would beat the best.
  llvm::Expected<evaluator::VariantOutcome> measure(const std::string &Unit,
                                                    const evaluator::VariantLaunch &Launch);
  // variantLaunchFor on the request's workload.
  llvm::Expected<evaluator::VariantLaunch> launchOf(const frontend::LaunchMapping &Mapping) const;
  // What each transform did with the original (the root node).
  std::vector<memory::TransformNote> transformNotesOfRoot() const;

  const OptimizeRequest &R;
  const frontend::KernelSummary &K;
  evaluator::VariantEvaluator &Eval;
  const ProgressFn &Progress;
  Clock::time_point Start = Clock::now();
  std::optional<StepPlanner> Planner;

  std::vector<Node> Nodes;
  std::vector<Candidate> Pending;
  // Steps held back until the chains run out (widen()), and whether they ran
  // out: from then on a node's points are all pending at once.
  std::vector<Candidate> Deferred;
  bool Widened = false;
  std::vector<std::string> Retuned;      // The best chain whose retunes are pending.
  std::set<std::string> Seen;            // Variants by content hash.
  std::set<std::string> DeadSteps;       // Steps whose variant failed (wrong, crashed, ...).
  std::map<std::string, unsigned> Unfit; // Per node and transform: points that did not apply.
  // Per node and transform: why its first point did not apply. A second point
  // refused for the same reason is refused for the code, not its parameters.
  std::map<std::string, std::string> UnfitWhy;
  // What a probe in addNode made, by node and step: the first point of a
  // transform is usually its first candidate too, and need not be applied twice.
  std::map<std::string, transform::ChainResult> Probed;
  std::map<std::string, unsigned> Points;
  OptimizeResult Result;
  double BestSpeedup = 1;
  std::optional<Node> Best;
  unsigned Evaluations = 0;
  double LoopStart = 0; // elapsed() once the original was measured and its steps listed.
};

void Search::addNode(Node N) {
  auto View = transform::summarizeUnit(N.Made.UnitText, K.Name, R.ClangArgs, N.Made.Pragma,
                                       transform::analysedInstantiation(K));
  if (!View) {
    llvm::consumeError(View.takeError());
    return;
  }
  N.View = std::make_shared<const frontend::KernelSummary>(std::move(*View));
  N.Facts = Planner->factsOf(N.View->Features);
  size_t Index = Nodes.size();
  if (N.Root == SIZE_MAX)
    N.Root = Index;
  // Past MaxDepth a chain grows by one more step only once the chains
  // within it ran out (its points deferred); never further.
  bool Extend = N.Chain.size() < R.Budget.MaxDepth;
  bool ExtendLater = N.Chain.size() == R.Budget.MaxDepth;
  std::vector<std::pair<const transform::Transform *, std::vector<transform::ParamSet>>> Spaces;
  for (const auto &T : transform::allTransforms()) {
    if (llvm::is_contained(R.Disabled, T->id().str()))
      continue;
    transform::Offer O = T->offer(*N.View, R.Policy);
    if (!O.offered()) {
      N.Blocked.insert(T->id().str());
      if (Nodes.empty())
        Result.NotOffered[T->id().str()] = O.whyNot();
    } else if (Extend || ExtendLater) {
      Spaces.push_back({T.get(), O.points()});
    }
  }
  // A transform that another one fitting this variant can make applicable:
  // does it fit as the code stands? (Its first point, applied now: a parse,
  // no evaluation.) Where it does not, the planner values the steps that
  // enable it higher.
  for (auto &[T, Space] : Spaces) {
    if (!Extend)
      break;
    bool EnablerFits = false;
    for (const std::string &Enabler : Planner->enablersOf(T->id()))
      EnablerFits |= !N.Blocked.count(Enabler) && !llvm::is_contained(R.Disabled, Enabler);
    if (!EnablerFits)
      continue;
    if (blocked(N, T->id()))
      continue;
    transform::Step Probe{T, Space.front()};
    if (auto Made = applyCounted(N, Probe); !Made)
      refuse(N, T->id().str(), llvm::toString(Made.takeError()));
    else
      Probed.emplace(probeKey(Index, Probe), std::move(*Made));
  }
  Nodes.push_back(std::move(N));
  const Node &Added = Nodes.back();
  auto Blocked = [&](llvm::StringRef Id) { return blocked(Added, Id); };
  for (auto &[T, Space] : Spaces) {
    // The transform's points in the planner's order (experience may move a
    // later point up), then the first PointsPerStep of them.
    std::vector<size_t> Order(Space.size());
    std::iota(Order.begin(), Order.end(), 0);
    std::vector<double> Values(Space.size());
    for (size_t I = 0; I < Space.size(); ++I)
      Values[I] = Planner->value(*T, Space[I], I, Added.Facts, Blocked);
    std::stable_sort(Order.begin(), Order.end(),
                     [&](size_t A, size_t B) { return Values[A] > Values[B]; });
    size_t Now = !Extend && !Widened ? 0
                 : Widened           ? Order.size()
                                     : std::min<size_t>(Order.size(), R.Budget.PointsPerStep);
    Points[std::to_string(Index) + "|" + T->id().str()] = Now;
    for (size_t At = 0; At < Order.size(); ++At)
      (At < Now ? Pending : Deferred)
          .push_back({Index, T, Space[Order[At]], Order[At], Added.Speedup});
  }
}

bool Search::widen() {
  if (!Widened) {
    Widened = true;
    for (Candidate &C : Deferred) {
      ++Points[std::to_string(C.NodeIndex) + "|" + C.T->id().str()];
      Pending.push_back(std::move(C));
    }
    Deferred.clear();
  }
  if (Best && Retuned != Result.BestSteps) {
    Retuned = Result.BestSteps;
    addRetunesOfBest();
  }
  return !Pending.empty();
}

void Search::addRetunesOfBest() {
  const std::vector<transform::Step> &Chain = Best->Chain;
  auto Same = [](const std::vector<transform::Step> &A, const std::vector<transform::Step> &B) {
    return A.size() == B.size() && std::equal(A.begin(), A.end(), B.begin(), [](auto &X, auto &Y) {
             return stepText(X) == stepText(Y);
           });
  };
  for (size_t At = 0; At < Chain.size(); ++At) {
    std::vector<transform::Step> Prefix(Chain.begin(), Chain.begin() + At);
    auto Node = std::find_if(Nodes.begin(), Nodes.end(),
                             [&](const struct Node &N) { return Same(N.Chain, Prefix); });
    if (Node == Nodes.end())
      continue;
    const transform::Step &Own = Chain[At];
    transform::Offer O = Own.T->offer(*Node->View, R.Policy);
    std::vector<transform::Step> Tail(Chain.begin() + At + 1, Chain.end());
    for (size_t I = 0; I < O.points().size(); ++I)
      if (O.points()[I] != Own.Params)
        Pending.push_back({static_cast<size_t>(Node - Nodes.begin()), Own.T, O.points()[I], I,
                           BestSpeedup, Tail});
  }
}

llvm::Expected<transform::ChainResult> Search::replay(transform::ChainResult Made,
                                                      const std::vector<transform::Step> &Tail) {
  for (const transform::Step &S : Tail) {
    double Before = elapsed();
    auto View = transform::summarizeUnit(Made.UnitText, K.Name, R.ClangArgs, Made.Pragma,
                                         transform::analysedInstantiation(K));
    auto Next = View ? transform::applyStep(*View, Made, R.ClangArgs, S)
                     : llvm::Expected<transform::ChainResult>(View.takeError());
    countApply(Before, bool(Next));
    if (!Next)
      return Next.takeError();
    Made = std::move(*Next);
  }
  return Made;
}

bool Search::blocked(const Node &N, llvm::StringRef Transform) const {
  if (N.Blocked.count(Transform.str()))
    return true;
  if (N.Root >= Nodes.size() || &Nodes[N.Root] == &N)
    return false;
  const std::map<std::string, std::string> &AtRoot = Nodes[N.Root].Refused;
  auto It = AtRoot.find(Transform.str());
  return It != AtRoot.end() && !(N.RestrictedSinceRoot && refusedForAliasing(It->second));
}

void Search::refuse(Node &N, const std::string &Transform, const std::string &Why) {
  N.Blocked.insert(Transform);
  N.Refused[Transform] = Why;
  // A reason other than aliasing holds for the root's code as well.
  if (N.Root < Nodes.size() && &Nodes[N.Root] != &N && !refusedForAliasing(Why))
    Nodes[N.Root].Refused.try_emplace(Transform, Why);
}

llvm::Expected<transform::ChainResult> Search::probedOrApplied(size_t NodeIndex,
                                                               const transform::Step &S) {
  auto It = Probed.find(probeKey(NodeIndex, S));
  if (It == Probed.end())
    return applyCounted(Nodes[NodeIndex], S);
  transform::ChainResult Made = std::move(It->second);
  Probed.erase(It);
  return Made;
}

llvm::Expected<transform::ChainResult> Search::applyCounted(const Node &N,
                                                            const transform::Step &S) {
  double Before = elapsed();
  auto Made = transform::applyStep(*N.View, N.Made, R.ClangArgs, S);
  countApply(Before, bool(Made));
  return Made;
}

void Search::countApply(double Before, bool Fitted) {
  double Seconds = elapsed() - Before;
  ++Result.Applies;
  Result.ApplySeconds += Seconds;
  if (!Fitted) {
    ++Result.UnfitSteps;
    Result.UnfitSeconds += Seconds;
  }
}

std::optional<size_t> Search::pickCandidate() {
  // The step with the highest expected log speedup, less the part of its
  // node's lag behind the best variant that its win would not make up (a step
  // on a slower node must gain that first; a restructuring on the original
  // whose wins are larger than the best chain's is still tried: loop-to-grid's
  // 20x after inner-loop-parallel found 30x).
  std::optional<size_t> Pick;
  double PickValue = 0;
  for (size_t I = 0; I < Pending.size(); ++I) {
    const Candidate &C = Pending[I];
    const Node &N = Nodes[C.NodeIndex];
    auto Blocked = [&](llvm::StringRef Id) { return blocked(N, Id); };
    double Lag = std::log(C.Reference) - std::log(BestSpeedup);
    double Shortfall = std::min(0.0, Lag + Planner->winGain(*C.T, C.Point, N.Facts));
    double V =
        Planner->value(*C.T, C.Point, C.PointIndex, N.Facts, Blocked) + LagWeight * Shortfall;
    if (!Pick || V > PickValue) {
      Pick = I;
      PickValue = V;
    }
  }
  return Pick;
}

llvm::Expected<evaluator::VariantLaunch>
Search::launchOf(const frontend::LaunchMapping &Mapping) const {
  return variantLaunchFor(R.Work, Mapping);
}

llvm::Expected<evaluator::VariantOutcome> Search::measure(const std::string &Unit,
                                                          const evaluator::VariantLaunch &Launch) {
  auto Screened = Eval.screen(source(Unit), Launch);
  if (!Screened || Screened->Result != Verdict::Promising)
    return Screened;
  std::string ScreenCall = Screened->TimingCall;
  double ScreenSeconds = Screened->Seconds;
  // Only a variant that would beat the best so far earns the full test.
  double Bar = memory::MinWinGain * BestSpeedup;
  if (Screened->Speedup < Bar) {
    Screened->TimingCall += llvm::formatv("; not confirmed: under {0:F2}x", Bar).str();
    return Screened;
  }
  auto Confirmed = Eval.confirm(source(Unit), Launch);
  if (!Confirmed)
    return Confirmed.takeError();
  Confirmed->TimingCall = ScreenCall + "; " + Confirmed->TimingCall;
  Confirmed->Seconds += ScreenSeconds;
  return Confirmed;
}

llvm::Expected<bool> Search::tryCandidate(const Candidate &C) {
  const Node &Parent = Nodes[C.NodeIndex];
  transform::Step S{C.T, C.Point};
  std::string Key = stepText(S);
  std::string NodeKey = std::to_string(C.NodeIndex) + "|" + C.T->id().str();
  // A transform that fits no point of this node (the probe in addNode, or
  // a reason that did not depend on the point): each apply is a parse or
  // more, which a short budget cannot spare.
  if (DeadSteps.count(Key) || blocked(Parent, C.T->id()))
    return false;
  std::vector<transform::Step> Chain = Parent.Chain;
  Chain.push_back(S);
  Chain.insert(Chain.end(), C.Tail.begin(), C.Tail.end());
  llvm::Expected<transform::ChainResult> Made = probedOrApplied(C.NodeIndex, S);
  if (Made && !C.Tail.empty()) {
    Made = replay(std::move(*Made), C.Tail);
    if (!Made) { // A later step of the best chain does not fit this point: no refusal of S.
      llvm::consumeError(Made.takeError());
      return false;
    }
  }
  if (!Made) { // The transform does not fit this code: not an attempt.
    std::string Why = llvm::toString(Made.takeError());
    auto [First, New] = UnfitWhy.try_emplace(NodeKey, Why);
    // A transform another can enable is refused at once, as its probe in
    // addNode would have refused it (none ran: no enabler fit the node).
    if (++Unfit[NodeKey] >= Points[NodeKey] || (!New && First->second == Why) ||
        !Planner->enablersOf(C.T->id()).empty())
      refuse(Nodes[C.NodeIndex], C.T->id().str(), Why);
    return false;
  }
  std::string Hash = variantHash(Made->UnitText, Made->Launch);
  if (!Seen.insert(Hash).second)
    return false;
  Attempt A;
  for (const transform::Step &Done : Chain)
    A.Steps.push_back(stepText(Done));
  A.Hash = Hash;
  A.ParentSpeedup = C.Reference;
  if (!C.Tail.empty())
    A.Varied = stepText(S);
  evaluator::VariantLaunch Launch = R.Work.Launch;
  std::string Rejected = reviewVariantSource(K.Unit.Text, Made->UnitText, R.Policy);
  if (Rejected.empty() && Made->Launch) {
    if (auto Mapped = launchOf(*Made->Launch))
      Launch = std::move(*Mapped);
    else
      Rejected = "its launch mapping does not evaluate: " + llvm::toString(Mapped.takeError());
  }
  evaluator::VariantOutcome Outcome;
  if (!Rejected.empty()) {
    Outcome.Result = Verdict::Wrong;
    Outcome.Detail = "rejected by the reviewer: " + Rejected;
  } else {
    auto O = measure(Made->UnitText, Launch);
    if (!O)
      return O.takeError();
    Outcome = *O;
    ++Evaluations;
    A.Evaluated = true;
  }
  // A screen compares with the original: under the gain it needs over the
  // variant it was made from, a promising variant is not faster.
  if (Outcome.Result == Verdict::Promising && Outcome.Speedup < memory::MinWinGain * C.Reference) {
    Outcome.Result = Verdict::NotFaster;
    Outcome.TimingCall +=
        llvm::formatv("; no {0:F2}x gain over its {2} {1:F2}x", memory::MinWinGain, C.Reference,
                      C.Tail.empty() ? "parent's" : "best chain's")
            .str();
  }
  A.Result = Outcome.Result;
  A.Detail = Outcome.Detail;
  A.Speedup = Outcome.Speedup;
  A.Seconds = elapsed();
  A.EvalSeconds = Outcome.Seconds;
  A.Timing = Outcome.TimingCall;
  bool Win = isWin(Outcome, C.Reference);
  Planner->observe(C.T->id(), C.Point, Win, C.Reference > 0 ? Outcome.Speedup / C.Reference : 0);
  bool Verified = Outcome.Result == Verdict::Faster || Outcome.Result == Verdict::NotFaster ||
                  Outcome.Result == Verdict::Promising;
  // A verified step that lets a transform in which did not fit its parent is
  // worth building on even without a gain of its own; so is one screened
  // promising but not confirmed (not above the best): its code may admit
  // steps the best's does not.
  bool Unblocks = false;
  if (const memory::Skill *Skill = Planner->skillOf(C.T->id()); Skill && Verified && C.Tail.empty())
    for (const std::string &Enabled : Skill->Enables)
      Unblocks |= blocked(Parent, Enabled);
  if (Outcome.Result == Verdict::Faster || Outcome.Result == Verdict::Promising || Unblocks) {
    double Speedup = Outcome.Speedup > 0 ? Outcome.Speedup : Parent.Speedup;
    Node Child{Chain, std::move(*Made), Speedup, nullptr, {}, {}, {}};
    // An attribute, a pragma or a math intrinsic makes no transform fit that
    // did not fit the parent: those refusals need no parse again. __restrict__
    // answers the refusals for aliasing only.
    bool Restrict = C.T->id() == "restrict-readonly";
    if (C.Tail.empty() && (keepsStructure(C.T->id()) || Restrict)) {
      Child.Root = Parent.Root;
      Child.RestrictedSinceRoot = Parent.RestrictedSinceRoot || Restrict;
    }
    if (Outcome.Result == Verdict::Faster && Outcome.Speedup > BestSpeedup) {
      BestSpeedup = Outcome.Speedup;
      Best = Child;
      Result.BestOutcome = Outcome;
      Result.BestSteps = A.Steps;
    }
    addNode(std::move(Child)); // Parent is not to be used after this.
  } else if (!Verified) {
    DeadSteps.insert(Key);
  }
  Result.Trajectory.push_back(A);
  if (Progress)
    Progress(A, Evaluations, BestSpeedup);
  return true;
}

std::vector<memory::TransformNote> Search::transformNotesOfRoot() const {
  TransformOutcomes O;
  O.Disabled = R.Disabled;
  for (const Attempt &A : Result.Trajectory)
    if (A.Evaluated)
      for (const std::string &Step : A.Steps)
        O.Tried.insert(llvm::StringRef(Step).split(':').first.str());
  if (Nodes.empty()) { // The original's unit did not parse: no transform saw it.
    for (const auto &T : transform::allTransforms())
      O.NotOffered[T->id().str()] = "kopt's front end could not read the original's unit";
    return transformNotes(O);
  }
  O.Refused = Nodes.front().Refused;
  for (const auto &[Id, Why] : Result.NotOffered) // Transform::offer's answers on the root.
    if (!O.Refused.count(Id))
      O.NotOffered[Id] = Why;
  return transformNotes(O);
}

llvm::Expected<OptimizeResult> Search::run() {
  auto Base = Eval.setOriginal(source(K.Unit.Text), R.Work);
  if (!Base)
    return Base.takeError();
  Result.Original = *Base;
  Planner.emplace(R.Plan ? R.Plan(*Base) : PlanInputs{}, K.Features, R.Forced);
  Seen.insert(variantHash(K.Unit.Text, std::nullopt));
  // Chains start from the unit as the launch contract reads it (a constant
  // block size as blockDim), so that every transform sees its index form.
  addNode(Node{{},
               {transform::chainStart(K, R.ClangArgs), std::nullopt, {}, K.Pragma},
               1.0,
               nullptr,
               {},
               {},
               {}});
  LoopStart = elapsed(); // The original's measurement and steps are no evaluation's cost.

  while (!outOfBudget() && (!Pending.empty() || widen())) {
    std::optional<size_t> Pick = pickCandidate();
    noteOverrun();
    Candidate C = Pending[*Pick];
    Pending.erase(Pending.begin() + static_cast<ptrdiff_t>(*Pick));
    if (auto Tried = tryCandidate(C); !Tried)
      return Tried.takeError();
  }

  std::optional<Node> Winner = Best;
  if (Winner && BestSpeedup > ReverifyAbove) {
    auto Again =
        reverifyOnFreshInputs(Eval, source(Winner->Made.UnitText),
                              Winner->Made.Launch ? llvm::cantFail(launchOf(*Winner->Made.Launch))
                                                  : evaluator::VariantLaunch(R.Work.Launch));
    if (!Again)
      return Again.takeError();
    if (*Again != Verdict::Faster)
      Winner.reset();
  }
  if (Winner) {
    auto V = variantFromUnit(K, Winner->Made.UnitText, Winner->Made.Launch, R.ClangArgs);
    if (!V)
      return V.takeError();
    Result.Best = *V;
    // Once, after the search: how close to the hardware the winner runs.
    Result.BestCounters =
        Eval.profile(source(Winner->Made.UnitText),
                     Winner->Made.Launch ? llvm::cantFail(launchOf(*Winner->Made.Launch))
                                         : evaluator::VariantLaunch(R.Work.Launch));
  }
  Result.Transforms = transformNotesOfRoot();
  if (Evaluations >= R.Budget.Evaluations)
    Result.StopReason = "evaluation budget spent";
  else if (outOfBudget())
    Result.StopReason = "time budget spent";
  Result.Seconds = elapsed();
  return std::move(Result);
}
} // namespace

llvm::Expected<OptimizeResult> optimizeKernel(const OptimizeRequest &R,
                                              evaluator::VariantEvaluator &Eval,
                                              const ProgressFn &Progress) {
  return Search(R, Eval, Progress).run();
}

} // namespace kopt::agents
