#include "evaluator/Evaluator.h"

#include "evaluator/Worker.h"
#include "evaluator/WorkerProtocol.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/FormatVariadic.h>

#include <chrono>

namespace kopt::evaluator {

using nlohmann::json;

namespace {
// Per request: NVRTC, three verification runs and the timing, with room; the
// worker's own watchdog catches a hanging kernel much sooner.
constexpr double RequestTimeoutSeconds = 600;

CompileRecord compileRecordFrom(const json &J) {
  CompileRecord R;
  R.Compiler = J.value("compiler", "");
  R.Log = J.value("log", "");
  R.Seconds = J.value("seconds", 0.0);
  return R;
}

llvm::Error answerError(const json &Answer) {
  return llvm::createStringError(Answer.value("message", "the evaluation worker failed"));
}
} // namespace

llvm::StringRef spelling(Verdict V) {
  static const char *const Names[] = {"faster",          "not_faster", "wrong",     "compile_error",
                                      "launch_rejected", "crashed",    "timed_out", "promising"};
  return Names[static_cast<unsigned>(V)];
}

VariantEvaluator::~VariantEvaluator() = default;

Profile VariantEvaluator::profile(const KernelSource &, const VariantLaunch &) {
  return Profile::unavailable("this evaluator does not profile variants");
}

Evaluator::Evaluator(EvaluatorOptions Opts) : Options(std::move(Opts)) {}
Evaluator::~Evaluator() = default;

llvm::Expected<std::unique_ptr<Evaluator>> Evaluator::start(EvaluatorOptions Options) {
  if (Options.WorkerProgram.empty())
    Options.WorkerProgram = "/proc/self/exe";
  std::unique_ptr<Evaluator> E(new Evaluator(Options));
  E->Process = std::make_unique<Worker>(Options.WorkerProgram);
  auto Hello = E->Process->request({{"op", "hello"}}, 120);
  if (!Hello)
    return Hello.takeError();
  if (Hello->value("status", "") != "ok")
    return answerError(*Hello);
  E->Device = Hello->at("device").get<DeviceInfo>();
  return E;
}

const DeviceInfo &Evaluator::device() const { return Device; }
unsigned Evaluator::workerRestarts() const {
  return Process->starts() > 0 ? Process->starts() - 1 : 0;
}

llvm::Expected<Baseline> Evaluator::setOriginal(const KernelSource &Source, const Workload &W) {
  std::vector<uint64_t> Seeds;
  for (unsigned I = 1; I <= Options.Seeds; ++I)
    Seeds.push_back(I);
  const bool Profiled = Options.Profile && W.bufferBytes() <= Options.ProfileMaxBytes;
  OriginalRequest = {{"op", "set_original"},
                     {"source", Source},
                     {"workload", W},
                     {"seeds", Seeds},
                     {"watchdog", Options.WatchdogSeconds},
                     {"slowdown_cap", Options.VariantSlowdownCap},
                     {"min_samples", Options.Timing.MinSamples},
                     {"max_samples", Options.Timing.MaxSamples},
                     {"target_noise", Options.Timing.TargetNoise},
                     {"max_seconds", Options.Timing.MaxSeconds},
                     {"screen_seconds", Options.Timing.ScreenSeconds},
                     {"profile", Profiled}};
  auto Begin = std::chrono::steady_clock::now();
  auto Answer = Process->request(OriginalRequest, RequestTimeoutSeconds);
  OriginalRequest["profile"] = false; // A restarted worker needs no second profile.
  if (!Answer)
    return Answer.takeError();
  if (Answer->value("status", "") != "ok") {
    OriginalRequest = json();
    return answerError(*Answer);
  }
  Baseline B;
  B.Device = Device;
  B.Compile = compileRecordFrom(Answer->at("compile"));
  B.Resources = Answer->at("resources").get<KernelResources>();
  B.Timing = Answer->at("timing").get<TimingSummary>();
  B.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
  B.ProfileSeconds = Answer->value("profile_seconds", 0.0);
  B.Weighted = Answer->value("weighted", json());
  if (Answer->contains("profile"))
    B.Counters = Answer->at("profile").get<Profile>();
  const json Copy = Answer->value("copy_rate", json());
  B.CopyGBs = Copy.is_object() ? Copy.value("gbs", 0.0) : 0.0;
  if (B.CopyGBs <= 0)
    B.CopyRateMissing =
        Copy.is_object() ? Copy.value("error", "no rate") : "the original was not profiled";
  else if (!Options.Profile)
    B.Counters = Profile::unavailable("profiling was turned off");
  else
    B.Counters = Profile::unavailable(
        llvm::formatv("the workload's {0:f1} GiB of buffers is over the profiler's limit of "
                      "{1:f1} GiB (its replay saves and restores them)",
                      W.bufferBytes() / double(1 << 30), Options.ProfileMaxBytes / double(1 << 30))
            .str());
  Unprofiled = B.Counters.available() ? "" : B.Counters.Error;
  if (B.Timing.MedianMs > 0)
    B.AchievedDramGBs = static_cast<double>(W.bufferBytes()) / (B.Timing.MedianMs * 1e-3) / 1e9;
  return B;
}

llvm::Expected<VariantOutcome> Evaluator::evaluate(const KernelSource &Variant,
                                                   const VariantLaunch &Launch,
                                                   llvm::ArrayRef<uint64_t> Seeds) {
  return request(Variant, Launch, Seeds, TimingStage::Full);
}

llvm::Expected<VariantOutcome> Evaluator::screen(const KernelSource &Variant,
                                                 const VariantLaunch &Launch) {
  return request(Variant, Launch, {}, TimingStage::Screen);
}

llvm::Expected<VariantOutcome> Evaluator::confirm(const KernelSource &Variant,
                                                  const VariantLaunch &Launch) {
  return request(Variant, Launch, {}, TimingStage::Confirm);
}

llvm::Error Evaluator::ensureOriginal() {
  if (OriginalRequest.is_null())
    return llvm::createStringError("a variant before setOriginal()");
  if (Process->running())
    return llvm::Error::success();
  // Restarted after a fault: the new worker needs the original.
  auto Again = Process->request(OriginalRequest, RequestTimeoutSeconds);
  if (!Again)
    return Again.takeError();
  if (Again->value("status", "") != "ok")
    return answerError(*Again);
  return llvm::Error::success();
}

Profile Evaluator::profile(const KernelSource &Variant, const VariantLaunch &Launch) {
  if (!Unprofiled.empty()) { // The original's reason holds for its variants.
    llvm::StringRef Why = Unprofiled;
    Why.consume_front("unavailable: ");
    return Profile::unavailable(Why);
  }
  if (llvm::Error E = ensureOriginal())
    return Profile::unavailable(llvm::toString(std::move(E)));
  auto Answer = Process->request(
      {{"op", "profile"}, {"source", Variant}, {"launch", Launch.Launch}}, RequestTimeoutSeconds);
  if (!Answer)
    return Profile::unavailable(llvm::toString(Answer.takeError()));
  if (Answer->value("status", "") != "ok")
    return Profile::unavailable(Answer->value("message", "the evaluation worker failed"));
  return Answer->at("profile").get<Profile>();
}

llvm::Expected<VariantOutcome> Evaluator::request(const KernelSource &Variant,
                                                  const VariantLaunch &Launch,
                                                  llvm::ArrayRef<uint64_t> Seeds,
                                                  TimingStage Stage) {
  auto Begin = std::chrono::steady_clock::now();
  auto Timed = [&](VariantOutcome O) {
    O.Stage = Stage;
    O.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
    return O;
  };
  if (llvm::Error E = ensureOriginal())
    return E;
  json Request = {{"op", "evaluate"},
                  {"source", Variant},
                  {"launch", Launch.Launch},
                  {"stage", spelling(Stage)}};
  if (!Launch.Recorded.empty())
    Request["recorded_launches"] = Launch.Recorded;
  if (!Seeds.empty())
    Request["seeds"] = std::vector<uint64_t>(Seeds.begin(), Seeds.end());
  VariantOutcome Out;
  auto Answer = Process->request(Request, RequestTimeoutSeconds);
  if (!Answer) { // Died without answering: a crash all the same.
    Out.Result = Verdict::Crashed;
    Out.Detail = llvm::toString(Answer.takeError());
    return Timed(Out);
  }
  std::string Status = Answer->value("status", "");
  if (Status == "crashed" || Status == "timed_out") {
    Out.Result = Status == "crashed" ? Verdict::Crashed : Verdict::TimedOut;
    Out.Detail = Answer->value("message", "");
    return Timed(Out);
  }
  if (Status != "ok")
    return answerError(*Answer);
  Out.Result = llvm::StringSwitch<Verdict>(Answer->value("verdict", ""))
                   .Case("faster", Verdict::Faster)
                   .Case("not_faster", Verdict::NotFaster)
                   .Case("compile_error", Verdict::CompileError)
                   .Case("launch_rejected", Verdict::LaunchRejected)
                   .Case("promising", Verdict::Promising)
                   .Default(Verdict::Wrong);
  Out.Detail = Answer->value("detail", "");
  if (Answer->contains("compile"))
    Out.Compile = compileRecordFrom(Answer->at("compile"));
  if (Answer->contains("resources"))
    Out.Resources = Answer->at("resources").get<KernelResources>();
  Out.SeedsVerified = Answer->value("seeds_verified", 0u);
  Out.WorstToleranceRatio = Answer->value("worst_ratio", 0.0);
  if (Answer->contains("original")) {
    Out.Original = Answer->at("original").get<TimingSummary>();
    Out.Variant = Answer->at("variant").get<TimingSummary>();
  }
  Out.Speedup = Answer->value("speedup", 0.0);
  Out.PValue = Answer->value("p_value", 1.0);
  Out.Samples = Answer->value("samples", 0u);
  Out.TimingCall = Answer->value("timing_call", "");
  Out.Weighted = Answer->value("weighted", json());
  return Timed(Out);
}

} // namespace kopt::evaluator
