#include "evaluator/Evaluator.h"

#include "evaluator/worker/Worker.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <chrono>

namespace kopt::evaluator {

using nlohmann::json;

namespace {
// Per request: NVRTC, three verification runs and the timing, with room; the
// worker's own watchdog catches a hanging kernel much sooner.
constexpr double RequestTimeoutSeconds = 600;

// Op's answer decoded as a T where its status is ok; a failure's message, or
// the missing field, as the error.
template <typename T> llvm::Expected<T> okBody(llvm::Expected<json> Answer, RequestOp Op) {
  if (!Answer)
    return Answer.takeError();
  auto Head = answerHead(*Answer);
  if (!Head)
    return Head.takeError();
  if (Head->Status != AnswerStatus::Ok)
    return llvm::createStringError(Head->Message.empty() ? "the evaluation worker failed"
                                                         : Head->Message);
  return decodeMessage<T>(*Answer, "the evaluation worker's answer to " + spelling(Op).str());
}
} // namespace

VariantEvaluator::~VariantEvaluator() = default;

llvm::Expected<double> VariantEvaluator::timeOnce(const KernelSource &Source, const Workload &W) {
  auto Measured = setOriginal(Source, W);
  if (!Measured)
    return Measured.takeError();
  return Measured->Timing.MedianMs;
}

Profile VariantEvaluator::profile(const KernelSource &, const VariantLaunch &) {
  return Profile::unavailable("this evaluator does not profile variants");
}

Evaluator::Evaluator(EvaluatorOptions Opts) : Options(std::move(Opts)) {}
Evaluator::~Evaluator() = default;

llvm::Expected<std::unique_ptr<Evaluator>> Evaluator::start(EvaluatorOptions Options) {
  if (Options.WorkerProgram.empty())
    Options.WorkerProgram = "/proc/self/exe";
  std::unique_ptr<Evaluator> E(new Evaluator(Options));
  E->Process = std::make_unique<Worker>(Options.WorkerProgram, Options.Device);
  auto Hello = okBody<HelloAnswer>(E->Process->request(helloRequest(), 120), RequestOp::Hello);
  if (!Hello)
    return Hello.takeError();
  E->Device = Hello->Device;
  return E;
}

const DeviceInfo &Evaluator::device() const { return Device; }
unsigned Evaluator::workerRestarts() const {
  return Process->starts() > 0 ? Process->starts() - 1 : 0;
}

OriginalRequest Evaluator::originalRequest(const KernelSource &Source, const Workload &W) const {
  OriginalRequest Request;
  Request.Source = Source;
  Request.Work = W;
  for (unsigned I = 1; I <= Options.Seeds; ++I)
    Request.Seeds.push_back(I);
  Request.WatchdogSeconds = Options.WatchdogSeconds;
  Request.SlowdownCap = Options.VariantSlowdownCap;
  Request.Timing = Options.Timing;
  Request.Profile = Options.Profile && W.bufferBytes() <= Options.ProfileMaxBytes;
  return Request;
}

llvm::Expected<OriginalAnswer> Evaluator::sendOriginal(const OriginalRequest &Request) {
  return okBody<OriginalAnswer>(Process->request(requestJson(Request), RequestTimeoutSeconds),
                                RequestOp::SetOriginal);
}

llvm::Expected<Baseline> Evaluator::setOriginal(const KernelSource &Source, const Workload &W) {
  OriginalRequest Request = originalRequest(Source, W);
  Original.reset();
  auto Begin = std::chrono::steady_clock::now();
  auto Answer = sendOriginal(Request);
  if (!Answer)
    return Answer.takeError();
  Original = Request;
  Original->Profile = false; // A restarted worker needs no second profile.
  // A restarted worker's references chain as many launches as this one's did.
  Original->Work.Chain = std::max(Answer->Chain, 1u);
  Baseline B;
  B.Device = Device;
  B.Compile = Answer->Compile;
  B.Resources = Answer->Resources;
  B.Timing = Answer->Timing;
  B.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
  B.ProfileSeconds = Answer->ProfileSeconds;
  B.Weighted = Answer->Weighted;
  B.Chain = Answer->Chain;
  if (Answer->Counters)
    B.Counters = *Answer->Counters;
  else if (!Options.Profile)
    B.Counters = Profile::unavailable("profiling was turned off");
  else
    B.Counters = Profile::unavailable(
        llvm::formatv("the workload's {0:f1} GiB of buffers is over the profiler's limit of "
                      "{1:f1} GiB (its replay saves and restores them)",
                      W.bufferBytes() / double(1 << 30), Options.ProfileMaxBytes / double(1 << 30))
            .str());
  if (Answer->CopyRate && Answer->CopyRate->GBs > 0)
    B.CopyGBs = Answer->CopyRate->GBs;
  else
    B.CopyRateMissing = !Answer->CopyRate                 ? "the original was not profiled"
                        : Answer->CopyRate->Error.empty() ? "no rate"
                                                          : Answer->CopyRate->Error;
  Unprofiled = B.Counters.available() ? "" : B.Counters.Error;
  if (B.Timing.MedianMs > 0)
    B.AchievedDramGBs = static_cast<double>(W.bufferBytes()) / (B.Timing.MedianMs * 1e-3) / 1e9;
  return B;
}

llvm::Expected<double> Evaluator::timeOnce(const KernelSource &Source, const Workload &W) {
  OriginalRequest Request = originalRequest(Source, W);
  Request.Work.Chain = 1;
  Request.Seeds = {1};
  Request.Profile = false;
  Request.TimeOnce = true;
  Original.reset(); // The worker no longer holds the last one.
  auto Answer = sendOriginal(Request);
  if (!Answer)
    return Answer.takeError();
  return Answer->Timing.MedianMs;
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
  if (!Original)
    return llvm::createStringError("a variant before setOriginal()");
  if (Process->running())
    return llvm::Error::success();
  // Restarted after a fault: the new worker needs the original.
  auto Again = sendOriginal(*Original);
  return Again ? llvm::Error::success() : Again.takeError();
}

Profile Evaluator::profile(const KernelSource &Variant, const VariantLaunch &Launch) {
  if (!Unprofiled.empty()) { // The original's reason holds for its variants.
    llvm::StringRef Why = Unprofiled;
    Why.consume_front("unavailable: ");
    return Profile::unavailable(Why);
  }
  if (llvm::Error E = ensureOriginal())
    return Profile::unavailable(llvm::toString(std::move(E)));
  ProfileRequest Request{Variant, Launch.Launch};
  auto Answer = okBody<ProfileAnswer>(Process->request(requestJson(Request), RequestTimeoutSeconds),
                                      RequestOp::Profile);
  if (!Answer)
    return Profile::unavailable(llvm::toString(Answer.takeError()));
  return Answer->Counters;
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
  VariantRequest Request;
  Request.Source = Variant;
  Request.Launch = Launch.Launch;
  if (!Launch.Recorded.empty())
    Request.RecordedLaunches = Launch.Recorded;
  Request.Seeds.assign(Seeds.begin(), Seeds.end());
  Request.Stage = Stage;
  VariantOutcome Out;
  auto Answer = Process->request(requestJson(Request), RequestTimeoutSeconds);
  if (!Answer) { // Died without answering: a crash all the same.
    Out.Result = Verdict::Crashed;
    Out.Detail = llvm::toString(Answer.takeError());
    return Timed(Out);
  }
  auto Head = answerHead(*Answer);
  if (!Head)
    return Head.takeError();
  if (Head->Status == AnswerStatus::Crashed || Head->Status == AnswerStatus::TimedOut) {
    Out.Result = Head->Status == AnswerStatus::Crashed ? Verdict::Crashed : Verdict::TimedOut;
    Out.Detail = Head->Message;
    return Timed(Out);
  }
  auto Outcome = okBody<VariantOutcome>(std::move(*Answer), RequestOp::Evaluate);
  if (!Outcome)
    return Outcome.takeError();
  return Timed(std::move(*Outcome));
}

} // namespace kopt::evaluator
