#include "agents/LlmOptimizer.h"

#include "agents/LlmPricing.h"
#include "agents/LlmReply.h"
#include "agents/LlmTrajectory.h"
#include "agents/LlmVariant.h"
#include "agents/VariantReviewer.h"

#include <llvm/Support/FormatVariadic.h>

#include <chrono>
#include <map>
#include <optional>

namespace kopt::agents {

using evaluator::Verdict;

namespace {
using Clock = std::chrono::steady_clock;

constexpr int PlannerMaxTokens = 1024, CoderMaxTokens = 4096;

class LlmLoop {
public:
  LlmLoop(const LlmRequest &Request, ChatModel &TheModel, evaluator::VariantEvaluator &TheEval,
          const ProgressFn &OnAttempt)
      : R(Request), K(*Request.Kernel), Model(TheModel), Eval(TheEval), Progress(OnAttempt),
        Start(Clock::now()) {}

  llvm::Expected<OptimizeResult> run();

private:
  struct Best {
    PlacedVariant Placed;
    evaluator::VariantOutcome Outcome;
    std::string Step;
  };

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - Start).count(); }
  int64_t tokens() const { return Spend.InputTokens + Spend.OutputTokens; }
  // Why the search must stop now, or "". Tokens limit the model's calls, not
  // the evaluation of code already paid for.
  std::string budgetSpent(bool Tokens = true) const;
  void note(const std::string &Line) const {
    if (R.Note)
      R.Note(Line);
  }
  evaluator::KernelSource source(const std::string &Unit) const {
    evaluator::KernelSource S = R.Source;
    S.Code = Unit;
    return S;
  }

  // One planner -> coder (-> debugger)* round; true when it evaluated a variant.
  llvm::Expected<bool> round();
  // The reply, or none where the budget is spent (StopReason says which).
  llvm::Expected<std::optional<ChatReply>>
  ask(llvm::StringRef Role, const std::vector<ChatMessage> &Messages, int MaxTokens);
  // What the debugger gets: why, and the failing unit (its lines are the
  // ones the compile log names), or the model's code where it never became one.
  struct Failure {
    std::string Why, Code;
  };
  // Places, reviews and evaluates the model's Code as step Step. Returns what
  // the debugger should repair, or none (done: verified, rejected, skipped).
  llvm::Expected<std::optional<Failure>> tryVariant(const std::string &Code,
                                                    const std::string &Step, bool &Evaluated);
  void record(Attempt A, const evaluator::VariantOutcome *Outcome);
  llvm::Error reverifyLargeGain();

  const LlmRequest &R;
  const frontend::KernelSummary &K;
  ChatModel &Model;
  evaluator::VariantEvaluator &Eval;
  const ProgressFn &Progress;
  Clock::time_point Start;

  OptimizeResult Result;
  LlmSpend Spend;
  UnitLayout Layout;
  PromptContext Context;
  std::map<std::string, std::string> Seen; // Content hash -> what it was.
  std::optional<Best> Top;
  unsigned Evaluations = 0;
  bool ApiFailed = false; // The last error came from the model's API.
};

std::string LlmLoop::budgetSpent(bool Tokens) const {
  if (elapsed() >= R.Budget.Seconds)
    return "time budget spent";
  if (Evaluations >= R.Budget.Evaluations)
    return "evaluation budget spent";
  if (Tokens && tokens() >= R.Budget.Tokens)
    return "token budget spent (" + std::to_string(tokens()) + " of " +
           std::to_string(R.Budget.Tokens) + ")";
  return "";
}

llvm::Expected<std::optional<ChatReply>>
LlmLoop::ask(llvm::StringRef Role, const std::vector<ChatMessage> &Messages, int MaxTokens) {
  if (std::string Why = budgetSpent(); !Why.empty()) {
    Result.StopReason = Why;
    return std::nullopt;
  }
  llvm::Expected<ChatReply> Reply = Model.chat(Messages, MaxTokens);
  if (!Reply) {
    ApiFailed = true;
    return llvm::createStringError(Role + ": " + llvm::toString(Reply.takeError()));
  }
  Spend.InputTokens += Reply->Usage.InputTokens;
  Spend.OutputTokens += Reply->Usage.OutputTokens;
  Spend.CostUsd += Reply->Usage.CostUsd;
  ++Spend.Requests;
  std::string Line = Role.str() + ": " + std::to_string(Reply->Usage.InputTokens) + "+" +
                     std::to_string(Reply->Usage.OutputTokens) + " tokens";
  if (Reply->Attempts > 1)
    Line += llvm::formatv(", {0} requests, waited {1:f1}s", Reply->Attempts, Reply->WaitedSeconds);
  if (Reply->Truncated)
    Line += ", cut off at the token limit";
  note(Line);
  return std::optional<ChatReply>(std::move(*Reply));
}

void LlmLoop::record(Attempt A, const evaluator::VariantOutcome *Outcome) {
  A.Seconds = elapsed();
  Context.Trajectory.push_back(trajectoryStep(A, Outcome));
  Result.Trajectory.push_back(A);
  if (Progress)
    Progress(A, Evaluations, Top ? Top->Outcome.Speedup : 1.0);
}

llvm::Expected<std::optional<LlmLoop::Failure>>
LlmLoop::tryVariant(const std::string &Code, const std::string &Step, bool &Evaluated) {
  llvm::Expected<PlacedVariant> Placed = placeModelCode(Layout, K.Name, Code);
  if (!Placed) {
    std::string Why = llvm::toString(Placed.takeError());
    Context.Trajectory.push_back({"-", Step, "unusable code: " + Why, std::nullopt});
    return Failure{Why, Code};
  }
  std::string Hash = codeHash(Placed->Unit);
  if (auto It = Seen.find(Hash); It != Seen.end()) {
    std::string Line = "identical to " + It->second + ": not evaluated again";
    note(Step + ": " + Line);
    Context.Trajectory.push_back({Hash, Step, Line, std::nullopt});
    return std::nullopt;
  }
  if (std::string Why = budgetSpent(/*Tokens=*/false); !Why.empty()) {
    Result.StopReason = Why;
    return std::nullopt;
  }
  Seen[Hash] = "variant " + Hash;

  Attempt A;
  A.Steps = {Step};
  A.Hash = Hash;
  if (std::string Cheat = reviewVariantSource(K.Unit.Text, Placed->Unit, R.Policy);
      !Cheat.empty()) {
    A.Result = Verdict::Wrong; // Cheats are not repaired: the plan itself is at fault.
    A.Detail = "rejected by the reviewer: " + Cheat;
    record(A, nullptr);
    return std::nullopt;
  }
  if (std::string Changed = signatureChange(K, Placed->Unit, R.ClangArgs); !Changed.empty()) {
    A.Result = Verdict::CompileError;
    A.Detail = Changed;
    record(A, nullptr);
    return Failure{Changed, Placed->Unit};
  }
  llvm::Expected<evaluator::VariantOutcome> O =
      Eval.evaluate(source(Placed->Unit), R.Work.Launch, {});
  if (!O)
    return O.takeError();
  ++Evaluations;
  Evaluated = true;
  A.Result = O->Result;
  A.Detail = O->Detail;
  A.Speedup = O->Speedup;
  A.Evaluated = true;
  A.EvalSeconds = O->Seconds;
  A.Timing = O->TimingCall;
  if (O->Result == Verdict::Faster && (!Top || O->Speedup > Top->Outcome.Speedup))
    Top = Best{std::move(*Placed), *O, Step};
  record(A, &*O);
  if (std::optional<std::string> Why = failureForDebugger(*O))
    return Failure{*Why, Placed->Unit};
  return std::nullopt;
}

llvm::Expected<bool> LlmLoop::round() {
  Context.BestUnit = Top ? Top->Placed.Unit : "";
  Context.Failure.clear();
  auto PlanReply = ask("planner", plannerPrompt(Context), PlannerMaxTokens);
  if (!PlanReply || !*PlanReply)
    return PlanReply ? llvm::Expected<bool>(false) : PlanReply.takeError();
  llvm::Expected<Plan> P = parsePlan((*PlanReply)->Text);
  if (!P) {
    std::string Why = llvm::toString(P.takeError());
    note("planner: " + Why);
    Context.Trajectory.push_back({"-", "(none)", Why, std::nullopt});
    return false;
  }
  note("plan: " + P->Skill + " (" + std::to_string(P->Changes.size()) + " change" +
       (P->Changes.size() == 1 ? "" : "s") + "; expected: " + P->Expected + ")");

  llvm::StringRef Short = frontend::unqualifiedName(K.Name);
  auto CodeReply = ask("coder", coderPrompt(Context, *P), CoderMaxTokens);
  if (!CodeReply || !*CodeReply)
    return CodeReply ? llvm::Expected<bool>(false) : CodeReply.takeError();
  llvm::Expected<std::string> Code = extractKernelCode((*CodeReply)->Text, Short);
  if (!Code) {
    std::string Why = llvm::toString(Code.takeError());
    note("coder: " + Why);
    Context.Trajectory.push_back({"-", P->Skill, "coder reply unusable: " + Why, std::nullopt});
    return false;
  }

  bool Evaluated = false;
  for (unsigned Repair = 0;; ++Repair) {
    std::string Step = Repair ? P->Skill + ":repair=" + std::to_string(Repair) : P->Skill;
    auto Failed = tryVariant(*Code, Step, Evaluated);
    if (!Failed)
      return Failed.takeError();
    if (!*Failed || Repair >= R.Budget.Repairs)
      return Evaluated;
    Context.Failure = (*Failed)->Why;
    note("debugger: repairing " + Step);
    auto Fixed = ask("debugger", debuggerPrompt(Context, (*Failed)->Code), CoderMaxTokens);
    Context.Failure.clear();
    if (!Fixed || !*Fixed)
      return Fixed ? llvm::Expected<bool>(Evaluated) : Fixed.takeError();
    llvm::Expected<std::string> Repaired = extractKernelCode((*Fixed)->Text, Short);
    if (!Repaired) {
      std::string Why = llvm::toString(Repaired.takeError());
      note("debugger: " + Why);
      Context.Trajectory.push_back({"-", Step, "debugger reply unusable: " + Why, std::nullopt});
      return Evaluated;
    }
    *Code = std::move(*Repaired);
  }
}

llvm::Error LlmLoop::reverifyLargeGain() {
  if (!Top || Top->Outcome.Speedup <= ReverifyAbove)
    return llvm::Error::success();
  auto Again = reverifyOnFreshInputs(Eval, source(Top->Placed.Unit), R.Work.Launch);
  if (!Again)
    return Again.takeError();
  if (*Again != Verdict::Faster) {
    note(
        "the " + llvm::formatv("{0:f1}", Top->Outcome.Speedup).str() +
        "x variant failed its re-verification on new inputs: " + evaluator::spelling(*Again).str());
    Top.reset();
  }
  return llvm::Error::success();
}

llvm::Expected<OptimizeResult> LlmLoop::run() {
  auto Base = Eval.setOriginal(source(K.Unit.Text), R.Work);
  if (!Base)
    return Base.takeError();
  Result.Original = *Base;
  auto L = unitLayoutOf(K, R.ClangArgs);
  if (!L)
    return L.takeError();
  Layout = std::move(*L);
  Context.KernelName = K.Name;
  Context.KernelUnit = K.Unit.Text;
  if (R.Retrieve) {
    LlmRetrieval Memory = R.Retrieve(*Base);
    Context.Profile = std::move(Memory.Profile);
    Context.Skills = std::move(Memory.Skills);
  }
  Seen[codeHash(K.Unit.Text)] = "the original kernel";
  Spend.Model = R.Model;
  Spend.Priced = priceOf(R.Model).has_value();

  for (unsigned Idle = 0; Result.StopReason.empty();) {
    llvm::Expected<bool> Evaluated = round();
    if (!Evaluated) {
      // Without a verified gain the run says nothing worth caching; the
      // evaluator's own failures always end it.
      if (!Top || !ApiFailed)
        return Evaluated.takeError();
      Result.StopReason = "the model's API failed: " + llvm::toString(Evaluated.takeError());
      break;
    }
    Idle = *Evaluated ? 0 : Idle + 1;
    if (Result.StopReason.empty() && Idle >= R.Budget.IdleRounds)
      Result.StopReason =
          "nothing new to evaluate in " + std::to_string(Idle) + (Idle == 1 ? " round" : " rounds");
  }
  note("stopped: " + Result.StopReason);

  if (llvm::Error E = reverifyLargeGain())
    return E;
  if (Top) {
    Result.Best = Top->Placed.Variant;
    Result.BestSteps = {Top->Step};
    Result.BestOutcome = Top->Outcome;
  }
  Result.Llm = Spend;
  Result.Seconds = elapsed();
  return std::move(Result);
}
} // namespace

llvm::Expected<OptimizeResult> optimizeWithLlm(const LlmRequest &Request, ChatModel &Model,
                                               evaluator::VariantEvaluator &Eval,
                                               const ProgressFn &Progress) {
  return LlmLoop(Request, Model, Eval, Progress).run();
}

} // namespace kopt::agents
