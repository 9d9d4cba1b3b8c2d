#include "evaluator/WorkerMain.h"

#include "evaluator/GpuSession.h"
#include "evaluator/RunComparison.h"
#include "evaluator/SequentialTest.h"
#include "evaluator/WeightedTiming.h"
#include "evaluator/WorkerProtocol.h"
#include "recorder/RecordingFormat.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>

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

// Timed samples of the original alone on each recorded launch: the weights of
// the weighted timing need its time there, not a test.
constexpr unsigned RecordedBaselineSamples = 3;

class WorkerState {
public:
  explicit WorkerState(int Out) : OutFd(Out) {}
  json handle(const json &Request);

private:
  json setOriginal(const json &Request);
  json evaluate(const json &Request);
  // One launch's hardware counters of a variant (the chosen one, once).
  json profileVariant(const json &Request);
  // The metrics the original's profile reads, which a variant's reads too.
  std::vector<std::string> profileMetrics() const;
  // The device's copy rate, measured at the first profile of the session.
  json copyRate();
  // A run's failure as the answer; exits the process when the context is lost.
  json failedRun(const RunResult &R, const char *Who);
  // Runs the original on Seed unless the session still holds its outputs.
  bool reference(uint64_t Seed, json &Failure);
  // The variant's run on Seed against the original's; errors: the device failed.
  llvm::Expected<RunVerdict> verify(const RunResult &Got, uint64_t Seed);
  // Compiles, loads and verifies a variant on every seed. Fills Answer with
  // the verdict where it fails (then false), else with what verification found.
  bool compileAndVerify(const json &Request, const LaunchGeometry &Launch,
                        const std::vector<LaunchGeometry> &RecordedLaunches,
                        const std::vector<uint64_t> &VerifySeeds, json &Answer,
                        LoadedKernel &Variant, std::vector<double> &RunMs);
  // The variant's launch for each recorded launch: as the request sends them
  // (a variant that remaps the launch), or each recorded launch's own (one
  // that keeps it); empty where a remapping variant came without them.
  std::vector<LaunchGeometry> recordedLaunchesOf(const json &Request,
                                                 const LaunchGeometry &Launch) const;
  // The interleaved measurement for Stage, its call in Answer.
  json timeAgainstOriginal(TimingStage Stage, const LoadedKernel &Variant,
                           const LaunchGeometry &Launch,
                           const std::vector<LaunchGeometry> &RecordedLaunches,
                           const std::vector<double> &VariantRunMs,
                           const std::vector<uint64_t> &VerifySeeds, json Answer);
  // The sequential test on the application's mean time per launch
  // (WeightedTiming.h): original and variant interleaved on each timed
  // recorded launch, up to each look, then combined. Leaves W prepared again.
  json timeWeighted(TimingStage Stage, const LoadedKernel &Variant,
                    const std::vector<LaunchGeometry> &RecordedLaunches, json Answer);
  // The original alone on every recorded launch, and the plan of the weighted
  // timing from those times; a failure answer, or null. Leaves W prepared again.
  json planWeighted();
  // A run-timed kernel's full test or confirmation (SequentialTest.h): the
  // variant's verification runs, and timed runs while the looks need them,
  // against the original's pool.
  json timeOnRuns(TimingStage Stage, const LoadedKernel &Variant, const LaunchGeometry &Launch,
                  std::vector<double> Runs, json Answer);
  // The original's pool: its runs on every seed, then timed samples alone.
  llvm::Expected<std::vector<double>> measurePool(RunFailure &Why);
  void forgetVerified();
  [[noreturn]] void answerAndExit(const json &Answer, int Status);
  // The variant on every recorded launch, against the original on the same
  // recorded inputs; a failure answer, or null. Leaves W prepared again.
  json verifyRecorded(const LoadedKernel &Variant, const std::vector<LaunchGeometry> &Launches,
                      double Deadline, unsigned &Verified, double &WorstRatio);
  // The recorded launch's buffer contents before it, by buffer argument.
  llvm::Expected<std::vector<std::vector<uint8_t>>> recordedInputs(const RecordedLaunch &R);
  // W becomes R's workload, prepared, with R's recorded inputs on
  // RecordedSeed; every buffer is compared (an input the variant changes
  // fails as a wrong output). A failure answer, or null.
  json useRecorded(const Workload &Seeded, const RecordedLaunch &R);

  // Variants verified on every session seed and screened promising, kept
  // loaded for their confirmation, by the exact request that made them.
  struct VerifiedVariant {
    std::string Key; // Source, options and launch, as sent.
    LoadedKernel Kernel;
    json Verification;         // seeds_verified, worst_ratio.
    std::vector<double> RunMs; // Its verification runs: a run-timed kernel's first samples.
  };
  std::list<VerifiedVariant> Screened; // Most recent first.
  static constexpr size_t MaxScreened = 4;

  int OutFd;
  std::unique_ptr<GpuSession> Session;
  std::string SessionError;
  bool Opened = false;
  Workload W;
  LoadedKernel Original;
  bool HasOriginal = false;
  double OriginalMs = 0, Watchdog = 10, SlowdownCap = 20;
  std::vector<uint64_t> Seeds;
  std::map<uint64_t, double> ReferenceMs; // The original's run on each seed's inputs.
  bool RunTimedKernel = false;            // runTimed(): variants are timed on their runs...
  std::vector<double> Pool;               // ... against these runs of the original.
  GpuSession::TimingBudget Budget;
  std::string RecordingPath; // Of Recording, read once.
  recorder::Recording Recording;
  WeightedPlan Weighted; // Empty: timed on W.Launch (no recording, or a run-timed kernel).
  json CopyRate;         // Null until measured.
};

json errorAnswer(const std::string &Message) { return {{"status", "error"}, {"message", Message}}; }

// A timing test's call in the answer: verdict, why, samples, speedup, p.
void putCall(json &Answer, const LookDecision &D) {
  static const char *const Calls[] = {"not_faster", "faster", "not_faster", "promising"};
  Answer["verdict"] = Calls[static_cast<unsigned>(D.Call)];
  Answer["timing_call"] = D.Why;
  Answer["samples"] = D.Samples;
  Answer["speedup"] = D.Speedup;
  Answer["p_value"] = D.PFaster;
}

json compileRecord(const CompiledKernel &K) {
  return {{"compiler", K.Compiler}, {"log", K.Log}, {"seconds", K.Seconds}};
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

json WorkerState::failedRun(const RunResult &R, const char *Who) {
  std::string Message = std::string(Who) + ": " + R.Message;
  if (R.Failure == RunFailure::Fault)
    answerAndExit({{"status", "crashed"}, {"message", Message}}, ExitFault);
  if (R.Failure == RunFailure::Hang)
    answerAndExit({{"status", "timed_out"}, {"message", Message}}, ExitHang);
  return {{"status", "launch_rejected"}, {"message", Message}};
}

bool WorkerState::reference(uint64_t Seed, json &Failure) {
  if (Session->hasReference(Seed))
    return true;
  RunResult R = Session->run(Original, W.Launch, Seed, Watchdog);
  if (R.Failure != RunFailure::None) {
    Failure = failedRun(R, "the original kernel");
    return false;
  }
  ReferenceMs[Seed] = R.Ms;
  for (size_t I = 0; I < R.Buffers.size(); ++I)
    if (R.Buffers[I].DamagedBefore || R.Buffers[I].DamagedAfter) {
      Failure = errorAnswer("the original kernel writes outside its buffers: check the sizes in "
                            "the pragma's buffers(...) clause");
      return false;
    }
  // Inputs are compared with their generated bytes: the original must leave them so too.
  size_t Index = 0;
  for (const KernelArg &A : W.Args) {
    const BufferArg *B = A.buffer();
    if (!B)
      continue;
    if (B->Dir == Direction::In) {
      auto C = Session->compareBuffer(Index, Seed, Tolerance{0, 0});
      if (!C) {
        Failure = failedRun({RunFailure::Fault, llvm::toString(C.takeError()), {}},
                            "verifying the original kernel");
        return false;
      }
      if (!C->passed()) {
        Failure = errorAnswer("the original kernel writes its input buffer '" + A.Name +
                              "': declare it inout in the pragma's buffers(...) clause");
        return false;
      }
    }
    ++Index;
  }
  if (auto E = Session->keepReference(Seed)) {
    Failure = errorAnswer(llvm::toString(std::move(E)));
    return false;
  }
  return true;
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

json WorkerState::useRecorded(const Workload &Seeded, const RecordedLaunch &R) {
  Workload Run = Seeded;
  Run.Args = R.Args;
  for (KernelArg &A : Run.Args)
    if (auto *B = std::get_if<BufferArg>(&A.Value); B && B->Dir == Direction::In)
      B->Dir = Direction::InOut;
  Run.Launch = R.Launch;
  W = Run;
  auto Inputs = recordedInputs(R);
  if (!Inputs)
    return errorAnswer(llvm::toString(Inputs.takeError()));
  if (auto E = Session->prepare(Run))
    return errorAnswer(llvm::toString(std::move(E)));
  Session->setRecordedInputs(std::move(*Inputs));
  return nullptr;
}

json WorkerState::verifyRecorded(const LoadedKernel &Variant,
                                 const std::vector<LaunchGeometry> &Launches, double Deadline,
                                 unsigned &Verified, double &WorstRatio) {
  const Workload Seeded = W;
  json Failure;
  for (size_t I = 0; I < Seeded.Recorded.size() && Failure.is_null(); ++I) {
    const RecordedLaunch &R = Seeded.Recorded[I];
    if (Failure = useRecorded(Seeded, R); !Failure.is_null())
      break;
    if (!reference(GpuSession::RecordedSeed, Failure))
      break;
    RunResult Got = Session->run(Variant, Launches[I], GpuSession::RecordedSeed, Deadline);
    if (Got.Failure != RunFailure::None) {
      json Rejected = failedRun(Got, "the variant");
      Failure = {{"status", "ok"},
                 {"verdict", "launch_rejected"},
                 {"detail", "recorded launch " + R.describe() + ": " +
                                Rejected["message"].get<std::string>()}};
      break;
    }
    auto Checked = verify(Got, GpuSession::RecordedSeed);
    if (!Checked)
      return failedRun({RunFailure::Fault, llvm::toString(Checked.takeError()), {}},
                       "verifying the variant");
    if (!Checked->Passed) {
      Failure = {{"status", "ok"},
                 {"verdict", "wrong"},
                 {"detail", "recorded launch " + R.describe() + ": " + Checked->Failure},
                 {"seeds_verified", Verified}};
      break;
    }
    WorstRatio = std::max(WorstRatio, Checked->WorstRatio);
    ++Verified;
  }
  W = Seeded;
  if (auto E = Session->prepare(W); E && Failure.is_null())
    Failure = errorAnswer(llvm::toString(std::move(E)));
  return Failure;
}

json WorkerState::handle(const json &Request) {
  if (!Opened) {
    Opened = true;
    auto S = GpuSession::open();
    if (S)
      Session = std::move(*S);
    else
      SessionError = llvm::toString(S.takeError());
  }
  if (!Session)
    return errorAnswer(SessionError);
  std::string Op = Request.at("op").get<std::string>();
  if (Op == "hello")
    return {{"status", "ok"}, {"device", Session->device()}};
  if (Op == "set_original")
    return setOriginal(Request);
  if (Op == "evaluate")
    return evaluate(Request);
  if (Op == "profile")
    return profileVariant(Request);
  return errorAnswer("unknown request '" + Op + "'");
}

void WorkerState::forgetVerified() {
  for (VerifiedVariant &V : Screened)
    Session->unload(V.Kernel);
  Screened.clear();
}

json WorkerState::setOriginal(const json &Request) {
  forgetVerified();
  ReferenceMs.clear();
  Pool.clear();
  Weighted = {};
  if (HasOriginal)
    Session->unload(Original);
  HasOriginal = false;
  W = Request.at("workload").get<Workload>();
  Seeds = Request.at("seeds").get<std::vector<uint64_t>>();
  Watchdog = Request.at("watchdog").get<double>();
  SlowdownCap = Request.at("slowdown_cap").get<double>();
  Budget.MinSamples = Request.at("min_samples").get<unsigned>();
  Budget.MaxSamples = Request.at("max_samples").get<unsigned>();
  Budget.TargetNoise = Request.at("target_noise").get<double>();
  Budget.MaxSeconds = Request.at("max_seconds").get<double>();
  Budget.ScreenSeconds = Request.value("screen_seconds", Budget.ScreenSeconds);
  auto Compiled =
      compileKernel(Request.at("source").get<KernelSource>(), Session->device().smArch());
  if (!Compiled)
    return errorAnswer("the original kernel does not compile on its own: " +
                       llvm::toString(Compiled.takeError()));
  auto Loaded = Session->load(*Compiled, W.Launch);
  if (!Loaded)
    return errorAnswer(llvm::toString(Loaded.takeError()));
  Original = *Loaded;
  HasOriginal = true;
  if (auto E = Session->prepare(W))
    return errorAnswer(llvm::toString(std::move(E)));
  json Failure;
  for (uint64_t Seed : Seeds)
    if (!reference(Seed, Failure))
      return Failure;
  RunFailure Why;
  Budget.DeadlineSeconds = Watchdog;
  RunTimedKernel = runTimed(SequentialDesign(), ReferenceMs[Seeds.front()], Budget.ScreenSeconds);
  std::vector<double> Baseline;
  if (RunTimedKernel) {
    auto Measured = measurePool(Why);
    if (!Measured)
      return failedRun({Why, llvm::toString(Measured.takeError()), {}}, "the original kernel");
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
      return failedRun(R, "the original kernel");
    }
    Baseline = std::move((*Samples)[0]);
  }
  TimingSummary T = summarize(Baseline);
  OriginalMs = T.MedianMs;
  json Answer = {{"status", "ok"},
                 {"compile", compileRecord(*Compiled)},
                 {"resources", Original.Resources},
                 {"timing", T}};
  // After the timing, so the profiler's replays and state cannot touch it.
  // CUPTI replays the launch once a pass: a long kernel gets the metrics the
  // planner's priors read, in fewer passes.
  // A run-timed kernel gets the throughputs alone: the instruction counts
  // patch the kernel's code and replay it in passes of its whole length.
  if (Request.value("profile", false)) {
    auto Begin = std::chrono::steady_clock::now();
    Answer["profile"] = Session->profile(Original, W.Launch, Seeds.front(), profileMetrics());
    Answer["copy_rate"] = copyRate();
    Answer["profile_seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
  }
  // A run-timed kernel stays timed on its runs of W.Launch: a weighted test
  // would take several of its long runs a look on each recorded launch.
  if (!W.Recorded.empty() && !RunTimedKernel) {
    if (Failure = planWeighted(); !Failure.is_null())
      return Failure;
    if (!Weighted.empty())
      Answer["weighted"] = planJson(Weighted, W.Recorded);
  }
  return Answer;
}

std::vector<std::string> WorkerState::profileMetrics() const {
  std::vector<std::string> Metrics;
  for (const char *M : RunTimedKernel           ? minimalProfileMetrics()
                       : longKernel(OriginalMs) ? coreProfileMetrics()
                                                : defaultProfileMetrics())
    Metrics.push_back(M);
  return Metrics;
}

json WorkerState::copyRate() {
  if (!CopyRate.is_null())
    return CopyRate;
  if (auto Rate = Session->measureCopyRate())
    CopyRate = {{"gbs", Rate->GBs}, {"bytes", Rate->Bytes}, {"copies", Rate->Copies}};
  else
    CopyRate = {{"error", llvm::toString(Rate.takeError())}};
  return CopyRate;
}

json WorkerState::profileVariant(const json &Request) {
  if (!HasOriginal)
    return errorAnswer("no original kernel is set");
  auto Launch = Request.at("launch").get<LaunchGeometry>();
  auto Compiled =
      compileKernel(Request.at("source").get<KernelSource>(), Session->device().smArch());
  if (!Compiled)
    return errorAnswer("the variant does not compile: " + llvm::toString(Compiled.takeError()));
  auto Loaded = Session->load(*Compiled, Launch);
  if (!Loaded)
    return errorAnswer(llvm::toString(Loaded.takeError()));
  auto Begin = std::chrono::steady_clock::now();
  json Answer = {{"status", "ok"},
                 {"profile", Session->profile(*Loaded, Launch, Seeds.front(), profileMetrics())}};
  Answer["profile_seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
  Session->unload(*Loaded);
  return Answer;
}

json WorkerState::planWeighted() {
  const Workload Seeded = W;
  std::vector<uint64_t> Weights;
  std::vector<double> Ms;
  json Failure;
  for (const RecordedLaunch &R : Seeded.Recorded) {
    if (Failure = useRecorded(Seeded, R); !Failure.is_null())
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
  W = Seeded;
  if (auto E = Session->prepare(W); E && Failure.is_null())
    Failure = errorAnswer(llvm::toString(std::move(E)));
  if (Failure.is_null())
    Weighted = planWeightedTiming(Weights, Ms);
  return Failure;
}

std::vector<LaunchGeometry> WorkerState::recordedLaunchesOf(const json &Request,
                                                            const LaunchGeometry &Launch) const {
  std::vector<LaunchGeometry> Launches;
  if (Request.contains("recorded_launches"))
    Launches = Request["recorded_launches"].get<std::vector<LaunchGeometry>>();
  else if (Launch == W.Launch)
    for (const RecordedLaunch &R : W.Recorded)
      Launches.push_back(R.Launch);
  return Launches;
}

bool WorkerState::compileAndVerify(const json &Request, const LaunchGeometry &Launch,
                                   const std::vector<LaunchGeometry> &RecordedLaunches,
                                   const std::vector<uint64_t> &VerifySeeds, json &Answer,
                                   LoadedKernel &Variant, std::vector<double> &RunMs) {
  auto Compiled =
      compileKernel(Request.at("source").get<KernelSource>(), Session->device().smArch());
  if (!Compiled) {
    Answer["verdict"] = "compile_error";
    Answer["detail"] = llvm::toString(Compiled.takeError());
    return false;
  }
  Answer["compile"] = compileRecord(*Compiled);
  auto Loaded = Session->load(*Compiled, Launch);
  if (!Loaded) {
    Answer["verdict"] = "compile_error";
    Answer["detail"] = llvm::toString(Loaded.takeError());
    return false;
  }
  Variant = *Loaded;
  Answer["resources"] = Variant.Resources;
  // The variant may be slower than the original, but not endlessly.
  double Deadline = std::max(1.0, SlowdownCap * OriginalMs / 1000);
  double WorstRatio = 0;
  unsigned Verified = 0;
  for (uint64_t Seed : VerifySeeds) {
    json Failure;
    if (!reference(Seed, Failure)) {
      Session->unload(Variant);
      Answer = Failure;
      return false;
    }
    RunResult Got = Session->run(Variant, Launch, Seed, Deadline);
    if (Got.Failure != RunFailure::None) {
      json Rejected = failedRun(Got, "the variant");
      Session->unload(Variant);
      Answer["verdict"] = "launch_rejected";
      Answer["detail"] = Rejected["message"];
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
      Answer["verdict"] = "wrong";
      Answer["detail"] = "inputs #" + std::to_string(Seed) + ": " + V.Failure;
      Answer["seeds_verified"] = Verified;
      if (V.Worst)
        Answer["worst"] = {{"buffer", V.Buffer},
                           {"index", V.Worst->Index},
                           {"got", V.Worst->Got},
                           {"expected", V.Worst->Expected}};
      if (V.First)
        Answer["first"] = {{"buffer", V.Buffer},
                           {"index", V.First->Index},
                           {"got", V.First->Got},
                           {"expected", V.First->Expected}};
      return false;
    }
    WorstRatio = std::max(WorstRatio, V.WorstRatio);
    RunMs.push_back(Got.Ms);
    ++Verified;
  }
  if (!W.Recorded.empty()) {
    if (RecordedLaunches.size() != W.Recorded.size()) {
      Session->unload(Variant);
      Answer["verdict"] = "wrong";
      Answer["detail"] = "the variant remaps the launch, and its launches for the recorded "
                         "launches are missing";
      return false;
    }
    json Failure = verifyRecorded(Variant, RecordedLaunches, Deadline, Verified, WorstRatio);
    if (!Failure.is_null()) {
      Session->unload(Variant);
      if (Failure.contains("verdict"))
        Failure["compile"] = Answer["compile"];
      Answer = std::move(Failure);
      return false;
    }
  }
  Answer["seeds_verified"] = Verified;
  Answer["worst_ratio"] = WorstRatio;
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

json WorkerState::timeOnRuns(TimingStage Stage, const LoadedKernel &Variant,
                             const LaunchGeometry &Launch, std::vector<double> Runs, json Answer) {
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
      json Rejected = failedRun({Why, llvm::toString(Samples.takeError()), {}, 0}, "timing");
      Answer["verdict"] = "launch_rejected";
      Answer["detail"] = Rejected["message"];
      return Answer;
    }
  }
  putCall(Answer, Plan.decision());
  Answer["original"] = summarize(Pool);
  Answer["variant"] = summarize(Runs);
  return Answer;
}

json WorkerState::timeAgainstOriginal(TimingStage Stage, const LoadedKernel &Variant,
                                      const LaunchGeometry &Launch,
                                      const std::vector<LaunchGeometry> &RecordedLaunches,
                                      const std::vector<double> &VariantRunMs,
                                      const std::vector<uint64_t> &VerifySeeds, json Answer) {
  SequentialDesign Design;
  auto Put = [&](const LookDecision &D, const std::vector<std::vector<double>> *Samples) {
    putCall(Answer, D);
    if (Samples) {
      Answer["original"] = summarize((*Samples)[0]);
      Answer["variant"] = summarize((*Samples)[1]);
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
    json Rejected = failedRun(R, "timing");
    Answer["verdict"] = "launch_rejected";
    Answer["detail"] = Rejected["message"];
    return Answer;
  }
  LookDecision D = Plan.decision();
  if (D.Call == SequentialCall::Continue) // The sample limit came between looks.
    D = lookAt(Design, Stage, (*Samples)[0], (*Samples)[1], /*Final=*/true);
  return Put(D, &*Samples);
}

json WorkerState::timeWeighted(TimingStage Stage, const LoadedKernel &Variant,
                               const std::vector<LaunchGeometry> &RecordedLaunches, json Answer) {
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
  json Failure;
  size_t Prepared = Timed; // None yet.
  for (unsigned Look : lookSizes(Design, Budget.MaxSamples)) {
    for (size_t J = 0; J < Timed && Failure.is_null(); ++J) {
      const TimedLaunch &T = Weighted.Launches[J];
      const RecordedLaunch &R = Seeded.Recorded[T.Index];
      if (Prepared != J) { // Each launch has its own buffers and inputs.
        if (Failure = useRecorded(Seeded, R); !Failure.is_null())
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
        json Rejected = failedRun({Why, llvm::toString(Samples.takeError()), {}, 0}, "timing");
        Failure = {{"verdict", "launch_rejected"},
                   {"detail", "recorded launch " + R.describe() + ": " +
                                  Rejected["message"].get<std::string>()}};
        break;
      }
      const std::vector<double> &OfOriginal = (*Samples)[Swap ? 1 : 0];
      const std::vector<double> &OfVariant = (*Samples)[Swap ? 0 : 1];
      OriginalRuns[J].insert(OriginalRuns[J].end(), OfOriginal.begin(), OfOriginal.end());
      VariantRuns[J].insert(VariantRuns[J].end(), OfVariant.begin(), OfVariant.end());
    }
    if (!Failure.is_null())
      break;
    O = weightedSamples(Weighted, OriginalRuns);
    V = weightedSamples(Weighted, VariantRuns);
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
    if (Plan.next(O, V, Seconds))
      break;
  }
  W = Seeded;
  if (auto E = Session->prepare(W); E && Failure.is_null())
    Failure = errorAnswer(llvm::toString(std::move(E)));
  if (!Failure.is_null()) {
    Answer.update(Failure);
    return Answer;
  }
  LookDecision D = Plan.decision();
  if (D.Call == SequentialCall::Continue) // The sample limit came between looks.
    D = lookAt(Design, Stage, O, V, /*Final=*/true);
  putCall(Answer, D);
  Answer["original"] = summarize(O);
  Answer["variant"] = summarize(V);
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
  Answer["weighted"] = std::move(Weights);
  return Answer;
}

json WorkerState::evaluate(const json &Request) {
  if (!HasOriginal)
    return errorAnswer("no original kernel is set");
  auto Launch = Request.at("launch").get<LaunchGeometry>();
  std::vector<uint64_t> VerifySeeds = Seeds;
  if (Request.contains("seeds") && !Request["seeds"].empty())
    VerifySeeds = Request["seeds"].get<std::vector<uint64_t>>();
  TimingStage Stage = TimingStage::Full;
  for (TimingStage S : {TimingStage::Screen, TimingStage::Confirm})
    if (Request.value("stage", "full") == spelling(S))
      Stage = S;
  json Answer = {{"status", "ok"}, {"stage", spelling(Stage)}};
  std::string Key = Request.at("source").dump() + Request.at("launch").dump();
  const std::vector<LaunchGeometry> Recorded = recordedLaunchesOf(Request, Launch);
  LoadedKernel Variant;
  std::vector<double> RunMs;
  // A confirmation of a variant this session screened: verified then, on
  // every seed of the session; anything else is verified here first.
  auto Kept = std::find_if(Screened.begin(), Screened.end(),
                           [&](const VerifiedVariant &V) { return V.Key == Key; });
  if (Stage == TimingStage::Confirm && Kept != Screened.end() && VerifySeeds == Seeds) {
    Variant = Kept->Kernel;
    RunMs = Kept->RunMs;
    Answer.update(Kept->Verification);
    Answer["resources"] = Variant.Resources;
    Screened.erase(Kept);
  } else if (!compileAndVerify(Request, Launch, Recorded, VerifySeeds, Answer, Variant, RunMs)) {
    return Answer;
  }
  Answer =
      timeAgainstOriginal(Stage, Variant, Launch, Recorded, RunMs, VerifySeeds, std::move(Answer));
  if (Stage == TimingStage::Screen && Answer.value("verdict", "") == "promising" &&
      VerifySeeds == Seeds) {
    Screened.push_front(
        {Key,
         Variant,
         {{"seeds_verified", Answer["seeds_verified"]}, {"worst_ratio", Answer["worst_ratio"]}},
         RunMs});
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

int runEvaluationWorker(int InFd, int OutFd) {
  WorkerState State(OutFd);
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
      Answer = errorAnswer(std::string("malformed request: ") + E.what());
    }
    if (auto E = writeMessage(OutFd, Answer)) {
      llvm::consumeError(std::move(E));
      return 1;
    }
  }
}

std::optional<int> runEvaluationWorkerIfAsked(int Argc, char **Argv) {
  if (Argc != 4 || std::strcmp(Argv[1], WorkerFlag) != 0)
    return std::nullopt;
  return runEvaluationWorker(std::atoi(Argv[2]), std::atoi(Argv[3]));
}

} // namespace kopt::evaluator
