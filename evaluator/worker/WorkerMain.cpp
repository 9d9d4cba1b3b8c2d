#include "evaluator/worker/WorkerMain.h"

#include "evaluator/device/GpuSession.h"
#include "evaluator/device/RunComparison.h"
#include "evaluator/timing/SequentialTest.h"
#include "evaluator/timing/WeightedTiming.h"
#include "evaluator/worker/MessageFraming.h"
#include "evaluator/worker/WorkerProtocol.h"
#include "recorder/RecordingFormat.h"

#include <llvm/Support/FormatVariadic.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <optional>
#include <variant>

namespace kopt::evaluator {

using nlohmann::json;

namespace {

// Exit statuses that tell the parent why the worker ended.
constexpr int ExitFault = 3, ExitHang = 4;

// A kernel this long needs no warm-up run (launch and clock effects are far
// below its noise) and its baseline may end after MinLongSamples samples.
constexpr double LongKernelMs = 20;
constexpr size_t MinLongSamples = 3;
bool longKernel(double Ms) { return Ms >= LongKernelMs; }

// The longest chain of the original's launches one verification run makes
// (Workload::Chain): a chain that would take longer is shortened, for the
// original and every variant alike, and the answer says so.
constexpr double MaxChainSeconds = 1;

// A recorded launch the application made Count times on a kernel that chains
// (Workload::Chain > 1: an inout buffer, or repeat(N)) is verified over a
// chain as long as the recording's count, from its recorded inputs, so error
// accumulated over the application's own launches shows. The recorded
// launches share MaxChainSeconds between them.
unsigned recordedChain(const Workload &W, const RecordedLaunch &R) {
  if (W.Chain <= 1)
    return 1;
  return unsigned(std::clamp<uint64_t>(R.Count, 1, 1000000));
}

// Timed samples of the original alone on each recorded launch: the weights of
// the weighted timing need its time there, not a test.
constexpr unsigned RecordedBaselineSamples = 3;

// An evaluate request's answer: the variant's outcome, or the request's failure.
using EvaluateAnswer = std::variant<VariantOutcome, AnswerHead>;

// A step that may fail the request: the failure, or none.
using StepFailure = std::optional<AnswerHead>;

class WorkerState {
public:
  WorkerState(int Out, int DeviceOrdinal) : OutFd(Out), Ordinal(DeviceOrdinal) {}
  json handle(const json &Request);

private:
  json setOriginal(const OriginalRequest &Request);
  // set_original's answer where the request asked for its time only.
  json timedOnce(const CompiledKernel &Compiled);
  EvaluateAnswer evaluate(const VariantRequest &Request);
  // One launch's hardware counters of a variant (the chosen one, once).
  json profileVariant(const ProfileRequest &Request);
  // The metrics the original's profile reads, which a variant's reads too.
  std::vector<std::string> profileMetrics() const;
  // The device's copy rate, measured at the first profile of the session.
  CopyRateRecord copyRate();
  // A run's failure as the request's (launch rejected); exits the process
  // when the context is lost.
  AnswerHead failedRun(const RunResult &R, const char *Who);
  // Runs the original on Seed unless the session still holds its outputs.
  // The first seed's run settles ChainLaunches.
  StepFailure reference(uint64_t Seed);
  // The launches of a verification run on Seed: ChainLaunches on the seeds,
  // one on a recorded launch (its recorded inputs are one launch's).
  LaunchChain chainOn(uint64_t Seed) const;
  // "inputs #2" or "inputs #2 after a chain of 20 launches".
  std::string describeInputs(uint64_t Seed) const;
  // The variant's run on Seed against the original's; errors: the device failed.
  llvm::Expected<RunVerdict> verify(const RunResult &Got, uint64_t Seed);
  // Compiles, loads and verifies a variant on every seed. Where it fails
  // (then false), Answer is the verdict or the request's failure; else its
  // outcome holds what verification found.
  bool compileAndVerify(const VariantRequest &Request,
                        const std::vector<LaunchGeometry> &RecordedLaunches,
                        const std::vector<uint64_t> &VerifySeeds, EvaluateAnswer &Answer,
                        LoadedKernel &Variant, std::vector<double> &RunMs);
  // The variant's launch for each recorded launch: as the request sends them
  // (a variant that remaps the launch), or each recorded launch's own (one
  // that keeps it); empty where a remapping variant came without them.
  std::vector<LaunchGeometry> recordedLaunchesOf(const VariantRequest &Request) const;
  // The interleaved measurement for Stage, its call in Answer.
  EvaluateAnswer timeAgainstOriginal(TimingStage Stage, const LoadedKernel &Variant,
                                     const LaunchGeometry &Launch,
                                     const std::vector<LaunchGeometry> &RecordedLaunches,
                                     const std::vector<double> &VariantRunMs,
                                     const std::vector<uint64_t> &VerifySeeds,
                                     VariantOutcome Answer);
  // The original and Variant interleaved for a screen's length on Seed's
  // inputs under Timing, and the final look at them: the second measurement
  // of confirmWarm and confirmOnLocalIndices.
  llvm::Expected<LookDecision> screenAgain(const SequentialDesign &Design,
                                           const LoadedKernel &Variant,
                                           const LaunchGeometry &Launch, uint64_t Seed,
                                           const GpuSession::TimingBudget &Timing);
  // A variant confirmed faster on a workload with index buffers, timed on
  // local indices as well: D becomes NotFaster where they say slower.
  void confirmOnLocalIndices(const SequentialDesign &Design, const LoadedKernel &Variant,
                             const LaunchGeometry &Launch, const GpuSession::TimingBudget &Timing,
                             LookDecision &D);
  // A variant confirmed faster cold, timed warm as well: D becomes NotFaster
  // where warm says slower.
  void confirmWarm(const SequentialDesign &Design, const LoadedKernel &Variant,
                   const LaunchGeometry &Launch, GpuSession::TimingBudget Timing, LookDecision &D);
  // The sequential test on the application's mean time per launch
  // (WeightedTiming.h): original and variant interleaved on each timed
  // recorded launch, up to each look, then combined. Leaves W prepared again.
  EvaluateAnswer timeWeighted(TimingStage Stage, const LoadedKernel &Variant,
                              const std::vector<LaunchGeometry> &RecordedLaunches,
                              VariantOutcome Answer);
  // The original alone on every recorded launch, and the plan of the weighted
  // timing from those times. Leaves W prepared again.
  StepFailure planWeighted();
  // A run-timed kernel's full test or confirmation (SequentialTest.h): the
  // variant's verification runs, and timed runs while the looks need them,
  // against the original's pool.
  VariantOutcome timeOnRuns(TimingStage Stage, const LoadedKernel &Variant,
                            const LaunchGeometry &Launch, std::vector<double> Runs,
                            VariantOutcome Answer);
  // The original's pool: its runs on every seed, then timed samples alone.
  llvm::Expected<std::vector<double>> measurePool(RunFailure &Why);
  void forgetVerified();
  [[noreturn]] void answerAndExit(const json &Answer, int Status);
  // The variant on every recorded launch, against the original on the same
  // recorded inputs: true where it passes; else Answer is the verdict or the
  // request's failure. Leaves W prepared again.
  bool verifyRecorded(const LoadedKernel &Variant, const std::vector<LaunchGeometry> &Launches,
                      double Deadline, EvaluateAnswer &Answer);
  // The recorded launch's buffer contents before it, by buffer argument.
  llvm::Expected<std::vector<std::vector<uint8_t>>> recordedInputs(const RecordedLaunch &R);
  // W becomes Seeded again, prepared, after a step on recorded launches. A
  // failure to prepare it fails the step unless the step had failed already
  // (Failed: the first failure is the answer).
  StepFailure restoreWorkload(const Workload &Seeded, bool Failed);
  // W becomes R's workload, prepared, with R's recorded inputs on
  // RecordedSeed; every buffer is compared (an input the variant changes
  // fails as a wrong output).
  StepFailure useRecorded(const Workload &Seeded, const RecordedLaunch &R);

  // Variants verified on every session seed and screened promising, kept
  // loaded for their confirmation, by the exact request that made them.
  struct VerifiedVariant {
    std::string Key; // Source, options and launch, as sent.
    LoadedKernel Kernel;
    unsigned SeedsVerified = 0;
    double WorstRatio = 0;
    std::vector<double> RunMs; // Its verification runs: a run-timed kernel's first samples.
  };
  std::list<VerifiedVariant> Screened; // Most recent first.
  static constexpr size_t MaxScreened = 4;

  int OutFd;
  int Ordinal; // The device the session opens.
  std::unique_ptr<GpuSession> Session;
  std::string SessionError;
  bool Opened = false;
  Workload W;
  LoadedKernel Original;
  bool HasOriginal = false;
  double OriginalMs = 0, Watchdog = 10, SlowdownCap = 20;
  std::vector<uint64_t> Seeds;
  std::map<uint64_t, double> ReferenceMs;        // The original's run on each seed's inputs.
  unsigned ChainLaunches = 0;                    // Of every seed's runs; 0: not settled yet.
  unsigned RecordedChain = 1;                    // Asked for the recorded launch in use;
  unsigned RecordedChainRun = 0;                 // as the original ran it (0: not yet).
  double RecordedChainSeconds = MaxChainSeconds; // Each recorded launch's share.
  bool RunTimedKernel = false;                   // runTimed(): variants are timed on their runs...
  std::vector<double> Pool;                      // ... against these runs of the original.
  GpuSession::TimingBudget Budget;
  std::string RecordingPath; // Of Recording, read once.
  recorder::Recording Recording;
  WeightedPlan Weighted; // Empty: timed on W.Launch (no recording, or a run-timed kernel).
  std::optional<CopyRateRecord> CopyRate; // None until measured.
};

AnswerHead requestError(std::string Message) { return {AnswerStatus::Error, std::move(Message)}; }

// A timing test's call in the answer: verdict, why, samples, speedup, p.
void putCall(VariantOutcome &Answer, const LookDecision &D) {
  static const Verdict Calls[] = {Verdict::NotFaster, Verdict::Faster, Verdict::NotFaster,
                                  Verdict::Promising};
  Answer.Result = Calls[static_cast<unsigned>(D.Call)];
  Answer.TimingCall = D.Why;
  Answer.Samples = D.Samples;
  Answer.Speedup = D.Speedup;
  Answer.PValue = D.PFaster;
}

CompileRecord compileRecord(const CompiledKernel &K) { return {K.Compiler, K.Log, K.Seconds}; }

// The answer where a variant's verification or timing ended it.
VariantOutcome &outcome(EvaluateAnswer &Answer) { return std::get<VariantOutcome>(Answer); }

json answerJson(const EvaluateAnswer &Answer) {
  if (const AnswerHead *Failed = std::get_if<AnswerHead>(&Answer))
    return failureAnswer(*Failed);
  return okAnswer(std::get<VariantOutcome>(Answer));
}

// The weighted timing's launches, as answers report them: each one's share of
// the original's total time and its time there, measured alone.
json planJson(const WeightedPlan &Plan, const std::vector<RecordedLaunch> &Recorded) {
  json Launches = json::array();
  for (const TimedLaunch &T : Plan.Launches) {
    const RecordedLaunch &R = Recorded[T.Index];
    Launches.push_back({{"id", R.Id},
                        {"launch", R.describe()},
                        {"count", R.Count},
                        {"weight", R.Weight},
                        {"share", T.Share},
                        {"baseline_ms", T.OriginalMs}});
  }
  uint64_t Total = 0;
  for (const RecordedLaunch &R : Recorded)
    Total += R.Weight;
  return {{"mean_ms", Plan.MeanMs}, {"application_launches", Total}, {"launches", Launches}};
}

// Where a weighted measurement looks: the sequential test's looks, up to and
// at the sample limit.
std::vector<unsigned> lookSizes(const SequentialDesign &D, unsigned MaxSamples) {
  std::vector<unsigned> Looks = {D.FirstLook};
  Looks.insert(Looks.end(), D.FasterLooks.begin(), D.FasterLooks.end());
  std::sort(Looks.begin(), Looks.end());
  std::erase_if(Looks, [&](unsigned N) { return N >= MaxSamples; });
  Looks.push_back(std::max(MaxSamples, 1u));
  return Looks;
}

void WorkerState::answerAndExit(const json &Answer, int Status) {
  (void)writeMessage(OutFd, Answer);
  std::_Exit(Status); // No destructors: the context is unusable.
}

AnswerHead WorkerState::failedRun(const RunResult &R, const char *Who) {
  std::string Message = std::string(Who) + ": " + R.Message;
  if (R.Failure == RunFailure::Fault)
    answerAndExit(failureAnswer({AnswerStatus::Crashed, Message}), ExitFault);
  if (R.Failure == RunFailure::Hang)
    answerAndExit(failureAnswer({AnswerStatus::TimedOut, Message}), ExitHang);
  return {AnswerStatus::LaunchRejected, Message};
}

LaunchChain WorkerState::chainOn(uint64_t Seed) const {
  if (Seed == GpuSession::RecordedSeed)
    return RecordedChainRun ? LaunchChain{RecordedChainRun, 0}
                            : LaunchChain{RecordedChain, RecordedChainSeconds};
  if (ChainLaunches == 0) // The original's first chain: as long as fits.
    return {W.Chain, MaxChainSeconds};
  return {ChainLaunches, 0};
}

std::string WorkerState::describeInputs(uint64_t Seed) const {
  std::string Inputs = "inputs #" + std::to_string(Seed);
  unsigned Launches = chainOn(Seed).Launches;
  if (Launches > 1)
    Inputs += " after a chain of " + std::to_string(Launches) + " launches";
  return Inputs;
}

StepFailure WorkerState::reference(uint64_t Seed) {
  if (Session->hasReference(Seed))
    return std::nullopt;
  RunResult R = Session->run(Original, W.Launch, Seed, Watchdog, chainOn(Seed));
  if (R.Failure != RunFailure::None)
    return failedRun(R, "the original kernel");
  if (Seed != GpuSession::RecordedSeed && ChainLaunches == 0)
    ChainLaunches = R.Launches;
  if (Seed == GpuSession::RecordedSeed)
    RecordedChainRun = R.Launches;
  ReferenceMs[Seed] = R.Ms;
  for (size_t I = 0; I < R.Buffers.size(); ++I)
    if (R.Buffers[I].DamagedBefore || R.Buffers[I].DamagedAfter)
      return requestError("the original kernel writes outside its buffers: check the sizes in "
                          "the pragma's buffers(...) clause");
  // Inputs are compared with their generated bytes: the original must leave them so too.
  size_t Index = 0;
  for (const KernelArg &A : W.Args) {
    const BufferArg *B = A.buffer();
    if (!B)
      continue;
    if (B->Dir == Direction::In) {
      auto C = Session->compareBuffer(Index, Seed, Tolerance{0, 0});
      if (!C)
        return failedRun({RunFailure::Fault, llvm::toString(C.takeError()), {}},
                         "verifying the original kernel");
      if (!C->passed())
        return requestError("the original kernel writes its input buffer '" + A.Name +
                            "': declare it inout in the pragma's buffers(...) clause");
    }
    ++Index;
  }
  if (auto E = Session->keepReference(Seed))
    return requestError(llvm::toString(std::move(E)));
  return std::nullopt;
}

llvm::Expected<RunVerdict> WorkerState::verify(const RunResult &Got, uint64_t Seed) {
  return compareRuns(W, Got, [&](size_t Index, const BufferArg &, const Tolerance &Tol) {
    return Session->compareBuffer(Index, Seed, Tol);
  });
}

llvm::Expected<std::vector<std::vector<uint8_t>>>
WorkerState::recordedInputs(const RecordedLaunch &R) {
  if (RecordingPath != W.RecordingFile) {
    recorder::ReadResult Read = recorder::readRecording(W.RecordingFile);
    if (!Read.Error.empty())
      return llvm::createStringError(Read.Error);
    Recording = std::move(Read.Value);
    RecordingPath = W.RecordingFile;
  }
  if (R.Id >= Recording.Launches.size())
    return llvm::createStringError("the recording has no launch #%u", R.Id);
  const recorder::LaunchRecord &L = Recording.Launches[R.Id].Launch;
  std::vector<std::vector<uint8_t>> Inputs;
  for (size_t I = 0; I < R.Args.size(); ++I) {
    if (!R.Args[I].buffer())
      continue;
    const recorder::PointerParam *P = nullptr;
    for (const recorder::PointerParam &Q : L.Pointers)
      if (Q.Param == I)
        P = &Q;
    const recorder::AllocationRecord *A = P ? &L.Allocations[P->Allocation] : nullptr;
    if (!A || !A->Before)
      return llvm::createStringError("recorded launch #%u has no contents for '%s'", R.Id,
                                     R.Args[I].Name.c_str());
    Inputs.emplace_back(A->Before->begin() + long(P->Offset), A->Before->end());
  }
  return Inputs;
}

StepFailure WorkerState::restoreWorkload(const Workload &Seeded, bool Failed) {
  W = Seeded;
  llvm::Error E = Session->prepare(W);
  if (!E)
    return std::nullopt;
  if (Failed) {
    llvm::consumeError(std::move(E));
    return std::nullopt;
  }
  return requestError(llvm::toString(std::move(E)));
}

StepFailure WorkerState::useRecorded(const Workload &Seeded, const RecordedLaunch &R) {
  Workload Run = Seeded;
  Run.Args = R.Args;
  for (KernelArg &A : Run.Args)
    if (auto *B = std::get_if<BufferArg>(&A.Value); B && B->Dir == Direction::In)
      B->Dir = Direction::InOut;
  Run.Launch = R.Launch;
  W = Run;
  RecordedChain = recordedChain(Seeded, R);
  RecordedChainRun = 0;
  RecordedChainSeconds = MaxChainSeconds / double(std::max<size_t>(Seeded.Recorded.size(), 1));
  auto Inputs = recordedInputs(R);
  if (!Inputs)
    return requestError(llvm::toString(Inputs.takeError()));
  if (auto E = Session->prepare(Run))
    return requestError(llvm::toString(std::move(E)));
  Session->setRecordedInputs(std::move(*Inputs));
  return std::nullopt;
}

bool WorkerState::verifyRecorded(const LoadedKernel &Variant,
                                 const std::vector<LaunchGeometry> &Launches, double Deadline,
                                 EvaluateAnswer &Answer) {
  const Workload Seeded = W;
  bool Passed = true;
  for (size_t I = 0; I < Seeded.Recorded.size() && Passed; ++I) {
    const RecordedLaunch &R = Seeded.Recorded[I];
    StepFailure Failure = useRecorded(Seeded, R);
    if (!Failure)
      Failure = reference(GpuSession::RecordedSeed);
    if (Failure) {
      Answer = *Failure;
      Passed = false;
      break;
    }
    VariantOutcome &Out = outcome(Answer);
    RunResult Got = Session->run(Variant, Launches[I], GpuSession::RecordedSeed, Deadline,
                                 chainOn(GpuSession::RecordedSeed));
    std::string Chain = RecordedChainRun > 1
                            ? " after a chain of " + std::to_string(RecordedChainRun) + " launches"
                            : "";
    if (Got.Failure != RunFailure::None) {
      Out.Result = Verdict::LaunchRejected;
      Out.Detail =
          "recorded launch " + R.describe() + Chain + ": " + failedRun(Got, "the variant").Message;
      Passed = false;
      break;
    }
    auto Checked = verify(Got, GpuSession::RecordedSeed);
    if (!Checked) {
      Answer = failedRun({RunFailure::Fault, llvm::toString(Checked.takeError()), {}},
                         "verifying the variant");
      return false;
    }
    if (!Checked->Passed) {
      Out.Result = Verdict::Wrong;
      Out.Detail = "recorded launch " + R.describe() + Chain + ": " + Checked->Failure;
      Passed = false;
      break;
    }
    Out.WorstToleranceRatio = std::max(Out.WorstToleranceRatio, Checked->WorstRatio);
    ++Out.SeedsVerified;
  }
  if (StepFailure Restored = restoreWorkload(Seeded, !Passed)) {
    Answer = *Restored;
    return false;
  }
  return Passed;
}
json WorkerState::handle(const json &Request) {
  if (!Opened) {
    Opened = true;
    auto S = GpuSession::open(Ordinal);
    if (S)
      Session = std::move(*S);
    else
      SessionError = llvm::toString(S.takeError());
  }
  if (!Session)
    return failureAnswer(requestError(SessionError));
  auto Op = requestOp(Request);
  if (!Op)
    return failureAnswer(requestError(llvm::toString(Op.takeError())));
  switch (*Op) {
  case RequestOp::Hello:
    return okAnswer(HelloAnswer{Session->device()});
  case RequestOp::SetOriginal: {
    auto R = decodeMessage<OriginalRequest>(Request, "the request set_original");
    if (!R)
      return failureAnswer(requestError(llvm::toString(R.takeError())));
    return setOriginal(*R);
  }
  case RequestOp::Evaluate: {
    auto R = decodeMessage<VariantRequest>(Request, "the request evaluate");
    if (!R)
      return failureAnswer(requestError(llvm::toString(R.takeError())));
    return answerJson(evaluate(*R));
  }
  case RequestOp::Profile: {
    auto R = decodeMessage<ProfileRequest>(Request, "the request profile");
    if (!R)
      return failureAnswer(requestError(llvm::toString(R.takeError())));
    return profileVariant(*R);
  }
  }
  return failureAnswer(requestError("unknown request"));
}
void WorkerState::forgetVerified() {
  for (VerifiedVariant &V : Screened)
    Session->unload(V.Kernel);
  Screened.clear();
}

json WorkerState::setOriginal(const OriginalRequest &Request) {
  forgetVerified();
  ReferenceMs.clear();
  ChainLaunches = 0;
  Pool.clear();
  Weighted = {};
  if (HasOriginal)
    Session->unload(Original);
  HasOriginal = false;
  W = Request.Work;
  Seeds = Request.Seeds;
  if (Seeds.empty())
    return failureAnswer(requestError("the request set_original has no seeds"));
  Watchdog = Request.WatchdogSeconds;
  SlowdownCap = Request.SlowdownCap;
  Budget = Request.Timing;
  auto Compiled = compileKernel(Request.Source, Session->device().smArch());
  if (!Compiled)
    return failureAnswer(requestError("the original kernel does not compile on its own: " +
                                      llvm::toString(Compiled.takeError())));
  auto Loaded = Session->load(*Compiled, W.Launch);
  if (!Loaded)
    return failureAnswer(requestError(llvm::toString(Loaded.takeError())));
  Original = *Loaded;
  HasOriginal = true;
  if (auto E = Session->prepare(W))
    return failureAnswer(requestError(llvm::toString(std::move(E))));
  for (uint64_t Seed : Seeds)
    if (StepFailure Failure = reference(Seed))
      return failureAnswer(*Failure);
  if (Request.TimeOnce)
    return timedOnce(*Compiled);
  RunFailure Why;
  Budget.DeadlineSeconds = Watchdog;
  RunTimedKernel = runTimed(SequentialDesign(), ReferenceMs[Seeds.front()], Budget.ScreenSeconds);
  std::vector<double> Baseline;
  if (RunTimedKernel) {
    auto Measured = measurePool(Why);
    if (!Measured)
      return failureAnswer(
          failedRun({Why, llvm::toString(Measured.takeError()), {}}, "the original kernel"));
    Pool = Baseline = std::move(*Measured);
  } else {
    // The reference runs warmed the original up. A long kernel's baseline ends
    // at the time limit after 3 samples: each variant is timed against it again.
    GpuSession::TimingBudget Alone = Budget;
    Alone.WarmUp = !longKernel(ReferenceMs[Seeds.front()]);
    auto Samples = Session->time(
        {{&Original, W.Launch}}, Seeds.front(), Alone, Why,
        [&](llvm::ArrayRef<std::vector<double>> S, double Seconds) {
          const std::vector<double> &Ms = S.front();
          if (Ms.size() >= Budget.MinSamples)
            return summarize(Ms).RelativeNoise <= Budget.TargetNoise || Seconds > Budget.MaxSeconds;
          // Fewer for a long kernel: stop where the next sample would pass
          // the limit.
          double Next = Seconds * double(Ms.size() + 1) / double(Ms.size());
          return Ms.size() >= MinLongSamples && Next > Budget.MaxSeconds;
        });
    if (!Samples) {
      RunResult R{Why, llvm::toString(Samples.takeError()), {}};
      return failureAnswer(failedRun(R, "the original kernel"));
    }
    Baseline = std::move((*Samples)[0]);
  }
  TimingSummary T = summarize(Baseline);
  OriginalMs = T.MedianMs;
  OriginalAnswer Answer;
  Answer.Chain = ChainLaunches;
  Answer.Compile = compileRecord(*Compiled);
  Answer.Resources = Original.Resources;
  Answer.Timing = T;
  // After the timing, so the profiler's replays and state cannot touch it.
  // CUPTI replays the launch once a pass: a long kernel gets the metrics the
  // planner's priors read, in fewer passes.
  // A run-timed kernel gets the throughputs alone: the instruction counts
  // patch the kernel's code and replay it in passes of its whole length.
  if (Request.Profile) {
    auto Begin = std::chrono::steady_clock::now();
    Answer.Counters = Session->profile(Original, W.Launch, Seeds.front(), profileMetrics());
    Answer.CopyRate = copyRate();
    Answer.ProfileSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
  }
  // A run-timed kernel stays timed on its runs of W.Launch: a weighted test
  // would take several of its long runs a look on each recorded launch.
  if (!W.Recorded.empty() && !RunTimedKernel) {
    if (StepFailure Failure = planWeighted())
      return failureAnswer(*Failure);
    if (!Weighted.empty())
      Answer.Weighted = planJson(Weighted, W.Recorded);
  }
  return okAnswer(Answer);
}

json WorkerState::timedOnce(const CompiledKernel &Compiled) {
  OriginalAnswer Answer;
  Answer.Chain = ChainLaunches;
  Answer.Compile = compileRecord(Compiled);
  Answer.Resources = Original.Resources;
  Answer.Timing = summarize({ReferenceMs[Seeds.front()]});
  // Nothing to verify variants against: they are refused until the next original.
  Session->unload(Original);
  HasOriginal = false;
  return okAnswer(Answer);
}

std::vector<std::string> WorkerState::profileMetrics() const {
  std::vector<std::string> Metrics;
  for (const char *M : RunTimedKernel           ? minimalProfileMetrics()
                       : longKernel(OriginalMs) ? coreProfileMetrics()
                                                : defaultProfileMetrics())
    Metrics.push_back(M);
  return Metrics;
}

CopyRateRecord WorkerState::copyRate() {
  if (CopyRate)
    return *CopyRate;
  CopyRate.emplace();
  if (auto Rate = Session->measureCopyRate()) {
    CopyRate->GBs = Rate->GBs;
    CopyRate->Bytes = Rate->Bytes;
    CopyRate->Copies = Rate->Copies;
  } else {
    CopyRate->Error = llvm::toString(Rate.takeError());
  }
  return *CopyRate;
}

json WorkerState::profileVariant(const ProfileRequest &Request) {
  if (!HasOriginal)
    return failureAnswer(requestError("no original kernel is set"));
  auto Compiled = compileKernel(Request.Source, Session->device().smArch());
  if (!Compiled)
    return failureAnswer(
        requestError("the variant does not compile: " + llvm::toString(Compiled.takeError())));
  auto Loaded = Session->load(*Compiled, Request.Launch);
  if (!Loaded)
    return failureAnswer(requestError(llvm::toString(Loaded.takeError())));
  auto Begin = std::chrono::steady_clock::now();
  ProfileAnswer Answer;
  Answer.Counters = Session->profile(*Loaded, Request.Launch, Seeds.front(), profileMetrics());
  Answer.ProfileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
  Session->unload(*Loaded);
  return okAnswer(Answer);
}

StepFailure WorkerState::planWeighted() {
  const Workload Seeded = W;
  std::vector<uint64_t> Weights;
  std::vector<double> Ms;
  StepFailure Failure;
  for (const RecordedLaunch &R : Seeded.Recorded) {
    if (Failure = useRecorded(Seeded, R); Failure)
      break;
    GpuSession::TimingBudget Alone = Budget;
    Alone.MaxSamples = RecordedBaselineSamples;
    Alone.DeadlineSeconds = Watchdog;
    RunFailure Why;
    auto Samples = Session->time({{&Original, R.Launch}}, GpuSession::RecordedSeed, Alone, Why,
                                 [](llvm::ArrayRef<std::vector<double>>, double) { return false; });
    if (!Samples) {
      Failure = failedRun(
          {Why, "recorded launch " + R.describe() + ": " + llvm::toString(Samples.takeError()), {}},
          "the original kernel");
      break;
    }
    Weights.push_back(R.Weight);
    Ms.push_back(summarize((*Samples)[0]).MedianMs);
  }
  if (StepFailure Restored = restoreWorkload(Seeded, Failure.has_value()))
    Failure = Restored;
  if (!Failure)
    Weighted = planWeightedTiming(Weights, Ms);
  return Failure;
}

std::vector<LaunchGeometry> WorkerState::recordedLaunchesOf(const VariantRequest &Request) const {
  std::vector<LaunchGeometry> Launches;
  if (Request.RecordedLaunches)
    Launches = *Request.RecordedLaunches;
  else if (Request.Launch == W.Launch)
    for (const RecordedLaunch &R : W.Recorded)
      Launches.push_back(R.Launch);
  return Launches;
}

bool WorkerState::compileAndVerify(const VariantRequest &Request,
                                   const std::vector<LaunchGeometry> &RecordedLaunches,
                                   const std::vector<uint64_t> &VerifySeeds, EvaluateAnswer &Answer,
                                   LoadedKernel &Variant, std::vector<double> &RunMs) {
  VariantOutcome &Out = outcome(Answer);
  const LaunchGeometry &Launch = Request.Launch;
  auto Compiled = compileKernel(Request.Source, Session->device().smArch());
  if (!Compiled) {
    Out.Result = Verdict::CompileError;
    Out.Detail = llvm::toString(Compiled.takeError());
    return false;
  }
  Out.Compile = compileRecord(*Compiled);
  auto Loaded = Session->load(*Compiled, Launch);
  if (!Loaded) {
    Out.Result = Verdict::CompileError;
    Out.Detail = llvm::toString(Loaded.takeError());
    return false;
  }
  Variant = *Loaded;
  Out.Resources = Variant.Resources;
  // The variant may be slower than the original, but not endlessly.
  double Deadline = std::max(1.0, SlowdownCap * OriginalMs / 1000);
  for (uint64_t Seed : VerifySeeds) {
    if (StepFailure Failure = reference(Seed)) {
      Session->unload(Variant);
      Answer = *Failure;
      return false;
    }
    RunResult Got = Session->run(Variant, Launch, Seed, Deadline, chainOn(Seed));
    if (Got.Failure != RunFailure::None) {
      AnswerHead Rejected = failedRun(Got, "the variant");
      Session->unload(Variant);
      Out.Result = Verdict::LaunchRejected;
      Out.Detail = Rejected.Message;
      return false;
    }
    auto Checked = verify(Got, Seed);
    if (!Checked) { // The device's own kernels failed: the context may be lost.
      Answer = failedRun({RunFailure::Fault, llvm::toString(Checked.takeError()), {}},
                         "verifying the variant");
      return false;
    }
    RunVerdict &V = *Checked;
    if (!V.Passed) {
      Session->unload(Variant);
      Out.Result = Verdict::Wrong;
      Out.Detail = describeInputs(Seed) + ": " + V.Failure;
      if (V.Worst)
        Out.Worst = FailedElement{V.Buffer, V.Worst->Index, V.Worst->Got, V.Worst->Expected};
      if (V.First)
        Out.First = FailedElement{V.Buffer, V.First->Index, V.First->Got, V.First->Expected};
      return false;
    }
    Out.WorstToleranceRatio = std::max(Out.WorstToleranceRatio, V.WorstRatio);
    RunMs.push_back(Got.Ms);
    ++Out.SeedsVerified;
  }
  if (!W.Recorded.empty()) {
    if (RecordedLaunches.size() != W.Recorded.size()) {
      Session->unload(Variant);
      Out.Result = Verdict::Wrong;
      Out.Detail = "the variant remaps the launch, and its launches for the recorded "
                   "launches are missing";
      return false;
    }
    if (!verifyRecorded(Variant, RecordedLaunches, Deadline, Answer)) {
      Session->unload(Variant);
      return false;
    }
  }
  return true;
}
llvm::Expected<std::vector<double>> WorkerState::measurePool(RunFailure &Why) {
  std::vector<double> Runs;
  for (uint64_t Seed : Seeds)
    Runs.push_back(ReferenceMs[Seed]);
  if (Runs.size() >= PooledBaselineRuns)
    return Runs;
  GpuSession::TimingBudget Alone = Budget;
  Alone.WarmUp = false; // The reference runs were its warm-up.
  Alone.MaxSamples = PooledBaselineRuns - static_cast<unsigned>(Runs.size());
  auto Samples = Session->time({{&Original, W.Launch}}, Seeds.front(), Alone, Why,
                               [](llvm::ArrayRef<std::vector<double>>, double) { return false; });
  if (!Samples)
    return Samples.takeError();
  Runs.insert(Runs.end(), (*Samples)[0].begin(), (*Samples)[0].end());
  return Runs;
}

VariantOutcome WorkerState::timeOnRuns(TimingStage Stage, const LoadedKernel &Variant,
                                       const LaunchGeometry &Launch, std::vector<double> Runs,
                                       VariantOutcome Answer) {
  PooledTiming Plan(Stage, Pool);
  if (Runs.size() > PooledMaxRuns)
    Runs.resize(PooledMaxRuns);
  if (!Plan.next(Runs)) {
    GpuSession::TimingBudget Timing = Budget;
    Timing.WarmUp = false;
    Timing.MaxSamples = PooledMaxRuns - static_cast<unsigned>(Runs.size());
    Timing.DeadlineSeconds = std::max(std::max(1.0, SlowdownCap * OriginalMs / 1000), Watchdog);
    const size_t Verified = Runs.size();
    RunFailure Why;
    auto Samples = Session->time({{&Variant, Launch}}, Seeds.front(), Timing, Why,
                                 [&](llvm::ArrayRef<std::vector<double>> S, double) {
                                   Runs.resize(Verified);
                                   Runs.insert(Runs.end(), S[0].begin(), S[0].end());
                                   return Plan.next(Runs);
                                 });
    if (!Samples) {
      AnswerHead Rejected = failedRun({Why, llvm::toString(Samples.takeError()), {}, 0}, "timing");
      Answer.Result = Verdict::LaunchRejected;
      Answer.Detail = Rejected.Message;
      return Answer;
    }
  }
  putCall(Answer, Plan.decision());
  Answer.Original = summarize(Pool);
  Answer.Variant = summarize(Runs);
  return Answer;
}

EvaluateAnswer WorkerState::timeAgainstOriginal(TimingStage Stage, const LoadedKernel &Variant,
                                                const LaunchGeometry &Launch,
                                                const std::vector<LaunchGeometry> &RecordedLaunches,
                                                const std::vector<double> &VariantRunMs,
                                                const std::vector<uint64_t> &VerifySeeds,
                                                VariantOutcome Answer) {
  SequentialDesign Design;
  auto Put = [&](const LookDecision &D, const std::vector<std::vector<double>> *Samples) {
    putCall(Answer, D);
    if (Samples) {
      Answer.Original = summarize((*Samples)[0]);
      Answer.Variant = summarize((*Samples)[1]);
    }
    return Answer;
  };
  // A screen of a kernel too long to sample FirstLook rounds in ScreenSeconds
  // reads its verification runs instead (paired with the original's on the
  // same inputs): no interleaved samples at all.
  if (RunTimedKernel && Stage == TimingStage::Screen) {
    std::vector<double> OriginalRunMs;
    for (uint64_t Seed : VerifySeeds)
      OriginalRunMs.push_back(ReferenceMs[Seed]);
    return Put(screenFromRuns(Design, OriginalRunMs, VariantRunMs), nullptr);
  }
  if (RunTimedKernel)
    return timeOnRuns(Stage, Variant, Launch, VariantRunMs, std::move(Answer));
  if (!Weighted.empty() && RecordedLaunches.size() == W.Recorded.size())
    return timeWeighted(Stage, Variant, RecordedLaunches, std::move(Answer));
  double Deadline = std::max(1.0, SlowdownCap * OriginalMs / 1000);
  GpuSession::TimingBudget Timing = Budget;
  Timing.DeadlineSeconds = std::max(Deadline, Watchdog);
  Timing.WarmUp = !longKernel(OriginalMs);
  SequentialTiming Plan(Design, Stage,
                        {Budget.MaxSamples,
                         Stage == TimingStage::Screen ? Budget.ScreenSeconds : Budget.MaxSeconds,
                         Budget.TargetNoise});
  RunFailure Why;
  auto Samples = Session->time({{&Original, W.Launch}, {&Variant, Launch}}, Seeds.front(), Timing,
                               Why, [&](llvm::ArrayRef<std::vector<double>> S, double Seconds) {
                                 return Plan.next(S[0], S[1], Seconds);
                               });
  if (!Samples) {
    RunResult R{Why, llvm::toString(Samples.takeError()), {}, 0};
    Answer.Result = Verdict::LaunchRejected;
    Answer.Detail = failedRun(R, "timing").Message;
    return Answer;
  }
  LookDecision D = Plan.decision();
  if (D.Call == SequentialCall::Continue) // The sample limit came between looks.
    D = lookAt(Design, Stage, (*Samples)[0], (*Samples)[1], /*Final=*/true);
  // A screen's Promising is confirmed later; a confirmation's or a full
  // evaluation's Faster is final, so it must hold warm and on local indices.
  if (Stage != TimingStage::Screen && D.Call == SequentialCall::Faster)
    confirmWarm(Design, Variant, Launch, Timing, D);
  if (Stage != TimingStage::Screen && D.Call == SequentialCall::Faster)
    confirmOnLocalIndices(Design, Variant, Launch, Timing, D);
  return Put(D, &*Samples);
}

llvm::Expected<LookDecision> WorkerState::screenAgain(const SequentialDesign &Design,
                                                      const LoadedKernel &Variant,
                                                      const LaunchGeometry &Launch, uint64_t Seed,
                                                      const GpuSession::TimingBudget &Timing) {
  SequentialTiming Plan(Design, TimingStage::Screen,
                        {Budget.MaxSamples, Budget.ScreenSeconds, Budget.TargetNoise});
  RunFailure Why;
  auto Samples = Session->time({{&Original, W.Launch}, {&Variant, Launch}}, Seed, Timing, Why,
                               [&](llvm::ArrayRef<std::vector<double>> S, double Seconds) {
                                 return Plan.next(S[0], S[1], Seconds);
                               });
  if (!Samples)
    return Samples.takeError();
  return lookAt(Design, TimingStage::Screen, (*Samples)[0], (*Samples)[1], /*Final=*/true);
}

// The seeds draw an index buffer uniformly over its range, so nearly every
// gather through it misses the caches. An application's indices are often
// near each other (a mesh, a banded matrix, a graph in a locality order), and
// a variant faster on scattered indices can be slower on local ones (issue 35:
// a PageRank pull 1.21x here made its program 0.68x). A variant confirmed
// faster is timed on local indices too (InputGenerator.h's localIndexElement),
// and the original kept where it is slower there.
void WorkerState::confirmOnLocalIndices(const SequentialDesign &Design, const LoadedKernel &Variant,
                                        const LaunchGeometry &Launch,
                                        const GpuSession::TimingBudget &Timing, LookDecision &D) {
  if (!GpuSession::hasLocalIndices(W))
    return;
  auto Again = screenAgain(Design, Variant, Launch, GpuSession::LocalIndicesSeed, Timing);
  if (!Again) { // Inputs it was not verified on: a failure there rejects it.
    D.Why = llvm::formatv("faster ({0:f2}x) on the seeds' indices, but its run on local indices "
                          "failed: {1}: the original kept",
                          D.Speedup, llvm::toString(Again.takeError()))
                .str();
    D.Call = SequentialCall::NotFaster;
    return;
  }
  const LookDecision &Local = *Again;
  if (Local.Speedup >= 1 / Design.MinGain) {
    D.Why += llvm::formatv("; on local indices {0:f2}x", Local.Speedup).str();
    return;
  }
  D.Why = llvm::formatv("faster on scattered indices ({0:f2}x) but slower on local ones ({1:f2}x, "
                        "each index near its position, as meshes and ordered graphs have "
                        "them): the original kept",
                        D.Speedup, Local.Speedup)
              .str();
  D.Call = SequentialCall::NotFaster;
  D.Speedup = Local.Speedup;
}

// The samples above run cold (L2 flushed), but a program's launches often
// find their data in L2, and a variant faster cold can be slower warm (issue
// 31: a convolution 1.42x here made its program 0.86x). A variant confirmed
// faster is timed warm too, and the original kept where warm says slower.
void WorkerState::confirmWarm(const SequentialDesign &Design, const LoadedKernel &Variant,
                              const LaunchGeometry &Launch, GpuSession::TimingBudget Timing,
                              LookDecision &D) {
  Timing.FlushL2 = false;
  auto Again = screenAgain(Design, Variant, Launch, Seeds.front(), Timing);
  if (!Again) { // It ran cold; a failure now is the GPU's, not the variant's.
    D.Why += "; not timed warm: " + llvm::toString(Again.takeError());
    return;
  }
  const LookDecision &Warm = *Again;
  if (Warm.Speedup >= 1 / Design.MinGain) {
    D.Why += llvm::formatv("; warm (L2 not flushed) {0:f2}x", Warm.Speedup).str();
    return;
  }
  D.Why = llvm::formatv("faster cold ({0:f2}x, L2 flushed) but slower warm ({1:f2}x, its data "
                        "in L2 as a program's next launch finds it): the original kept",
                        D.Speedup, Warm.Speedup)
              .str();
  D.Call = SequentialCall::NotFaster;
  D.Speedup = Warm.Speedup;
}

EvaluateAnswer WorkerState::timeWeighted(TimingStage Stage, const LoadedKernel &Variant,
                                         const std::vector<LaunchGeometry> &RecordedLaunches,
                                         VariantOutcome Answer) {
  SequentialDesign Design;
  SequentialTiming Plan(Design, Stage,
                        {Budget.MaxSamples,
                         Stage == TimingStage::Screen ? Budget.ScreenSeconds : Budget.MaxSeconds,
                         Budget.TargetNoise});
  const size_t Timed = Weighted.Launches.size();
  std::vector<std::vector<double>> OriginalRuns(Timed), VariantRuns(Timed);
  std::vector<double> O, V;
  const Workload Seeded = W;
  const auto Begin = std::chrono::steady_clock::now();
  StepFailure Failure;
  bool Rejected = false;   // A launch of the variant failed: Answer says how.
  size_t Prepared = Timed; // None yet.
  for (unsigned Look : lookSizes(Design, Budget.MaxSamples)) {
    for (size_t J = 0; J < Timed && !Failure && !Rejected; ++J) {
      const TimedLaunch &T = Weighted.Launches[J];
      const RecordedLaunch &R = Seeded.Recorded[T.Index];
      if (Prepared != J) { // Each launch has its own buffers and inputs.
        if (Failure = useRecorded(Seeded, R); Failure)
          break;
        Prepared = J;
      }
      GpuSession::TimingBudget Timing = Budget;
      Timing.MaxSamples = Look - static_cast<unsigned>(OriginalRuns[J].size());
      Timing.WarmUp = OriginalRuns[J].empty() && !longKernel(T.OriginalMs);
      Timing.DeadlineSeconds = std::max(std::max(1.0, SlowdownCap * T.OriginalMs / 1000), Watchdog);
      // ABBA continues across the pieces: an odd count so far starts with the variant.
      const bool Swap = OriginalRuns[J].size() % 2 == 1;
      GpuSession::TimedKernel Pair[] = {{&Original, R.Launch},
                                        {&Variant, RecordedLaunches[T.Index]}};
      if (Swap)
        std::swap(Pair[0], Pair[1]);
      RunFailure Why;
      auto Samples =
          Session->time(Pair, GpuSession::RecordedSeed, Timing, Why,
                        [](llvm::ArrayRef<std::vector<double>>, double) { return false; });
      if (!Samples) {
        AnswerHead Run = failedRun({Why, llvm::toString(Samples.takeError()), {}, 0}, "timing");
        Answer.Result = Verdict::LaunchRejected;
        Answer.Detail = "recorded launch " + R.describe() + ": " + Run.Message;
        Rejected = true;
        break;
      }
      const std::vector<double> &OfOriginal = (*Samples)[Swap ? 1 : 0];
      const std::vector<double> &OfVariant = (*Samples)[Swap ? 0 : 1];
      OriginalRuns[J].insert(OriginalRuns[J].end(), OfOriginal.begin(), OfOriginal.end());
      VariantRuns[J].insert(VariantRuns[J].end(), OfVariant.begin(), OfVariant.end());
    }
    if (Failure || Rejected)
      break;
    O = weightedSamples(Weighted, OriginalRuns);
    V = weightedSamples(Weighted, VariantRuns);
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
    if (Plan.next(O, V, Seconds))
      break;
  }
  if (StepFailure Restored = restoreWorkload(Seeded, Failure || Rejected))
    return *Restored;
  if (Failure)
    return *Failure;
  if (Rejected)
    return Answer;
  LookDecision D = Plan.decision();
  if (D.Call == SequentialCall::Continue) // The sample limit came between looks.
    D = lookAt(Design, Stage, O, V, /*Final=*/true);
  putCall(Answer, D);
  Answer.Original = summarize(O);
  Answer.Variant = summarize(V);
  json Weights = planJson(Weighted, Seeded.Recorded);
  std::vector<double> Speedups;
  for (size_t J = 0; J < Timed; ++J) {
    double Before = summarize(OriginalRuns[J]).MedianMs, After = summarize(VariantRuns[J]).MedianMs;
    Speedups.push_back(After > 0 ? Before / After : 0);
    Weights["launches"][J]["original_ms"] = Before;
    Weights["launches"][J]["variant_ms"] = After;
    Weights["launches"][J]["speedup"] = Speedups.back();
  }
  Weights["speedup"] = D.Speedup;
  Weights["speedup_of_medians"] = weightedSpeedup(Weighted, Speedups);
  Answer.Weighted = std::move(Weights);
  return Answer;
}

EvaluateAnswer WorkerState::evaluate(const VariantRequest &Request) {
  if (!HasOriginal)
    return requestError("no original kernel is set");
  const LaunchGeometry &Launch = Request.Launch;
  std::vector<uint64_t> VerifySeeds = Request.Seeds.empty() ? Seeds : Request.Seeds;
  const TimingStage Stage = Request.Stage;
  EvaluateAnswer Answer = VariantOutcome();
  outcome(Answer).Stage = Stage;
  std::string Key = json(Request.Source).dump() + json(Request.Launch).dump();
  const std::vector<LaunchGeometry> Recorded = recordedLaunchesOf(Request);
  LoadedKernel Variant;
  std::vector<double> RunMs;
  // A confirmation of a variant this session screened: verified then, on
  // every seed of the session; anything else is verified here first.
  auto Kept = std::find_if(Screened.begin(), Screened.end(),
                           [&](const VerifiedVariant &V) { return V.Key == Key; });
  if (Stage == TimingStage::Confirm && Kept != Screened.end() && VerifySeeds == Seeds) {
    Variant = Kept->Kernel;
    RunMs = Kept->RunMs;
    outcome(Answer).SeedsVerified = Kept->SeedsVerified;
    outcome(Answer).WorstToleranceRatio = Kept->WorstRatio;
    outcome(Answer).Resources = Variant.Resources;
    Screened.erase(Kept);
  } else if (!compileAndVerify(Request, Recorded, VerifySeeds, Answer, Variant, RunMs)) {
    return Answer;
  }
  Answer = timeAgainstOriginal(Stage, Variant, Launch, Recorded, RunMs, VerifySeeds,
                               std::move(outcome(Answer)));
  const VariantOutcome *Timed = std::get_if<VariantOutcome>(&Answer);
  if (Stage == TimingStage::Screen && Timed && Timed->Result == Verdict::Promising &&
      VerifySeeds == Seeds) {
    Screened.push_front({Key, Variant, Timed->SeedsVerified, Timed->WorstToleranceRatio, RunMs});
    if (Screened.size() > MaxScreened) {
      Session->unload(Screened.back().Kernel);
      Screened.pop_back();
    }
  } else {
    Session->unload(Variant);
  }
  return Answer;
}
} // namespace

int runEvaluationWorker(int InFd, int OutFd, int DeviceOrdinal) {
  WorkerState State(OutFd, DeviceOrdinal);
  for (;;) {
    ReadFailure Why;
    auto Request = readMessage(InFd, -1, Why);
    if (!Request) {
      llvm::consumeError(Request.takeError());
      return Why == ReadFailure::Closed ? 0 : 1;
    }
    json Answer;
    try {
      Answer = State.handle(*Request);
    } catch (const std::exception &E) {
      Answer = failureAnswer(requestError(std::string("malformed request: ") + E.what()));
    }
    if (auto E = writeMessage(OutFd, Answer)) {
      llvm::consumeError(std::move(E));
      return 1;
    }
  }
}

std::optional<int> runEvaluationWorkerIfAsked(int Argc, char **Argv) {
  if (Argc != 5 || std::strcmp(Argv[1], WorkerFlag) != 0)
    return std::nullopt;
  return runEvaluationWorker(std::atoi(Argv[2]), std::atoi(Argv[3]), std::atoi(Argv[4]));
}

} // namespace kopt::evaluator
