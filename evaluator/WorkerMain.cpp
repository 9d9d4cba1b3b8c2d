#include "evaluator/WorkerMain.h"

#include "evaluator/GpuSession.h"
#include "evaluator/RunComparison.h"
#include "evaluator/WorkerProtocol.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>

namespace kopt::evaluator {

using nlohmann::json;

namespace {

// Exit statuses that tell the parent why the worker ended.
constexpr int ExitFault = 3, ExitHang = 4;

class WorkerState {
public:
  explicit WorkerState(int Out) : OutFd(Out) {}
  json handle(const json &Request);

private:
  json setOriginal(const json &Request);
  json evaluate(const json &Request);
  // A run's failure as the answer; exits the process when the context is lost.
  json failedRun(const RunResult &R, const char *Who);
  const RunResult *reference(uint64_t Seed, json &Failure);
  [[noreturn]] void answerAndExit(const json &Answer, int Status);

  int OutFd;
  std::unique_ptr<GpuSession> Session;
  std::string SessionError;
  bool Opened = false;
  Workload W;
  LoadedKernel Original;
  bool HasOriginal = false;
  double OriginalMs = 0, Watchdog = 10, SlowdownCap = 20;
  std::vector<uint64_t> Seeds;
  GpuSession::TimingBudget Budget;
  std::map<uint64_t, RunResult> References;
};

json errorAnswer(const std::string &Message) { return {{"status", "error"}, {"message", Message}}; }

json compileRecord(const CompiledKernel &K) {
  return {{"compiler", K.Compiler}, {"log", K.Log}, {"seconds", K.Seconds}};
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

const RunResult *WorkerState::reference(uint64_t Seed, json &Failure) {
  auto It = References.find(Seed);
  if (It != References.end())
    return &It->second;
  RunResult R = Session->run(Original, W.Launch, Seed, Watchdog);
  if (R.Failure != RunFailure::None) {
    Failure = failedRun(R, "the original kernel");
    return nullptr;
  }
  for (size_t I = 0; I < R.Buffers.size(); ++I)
    if (R.Buffers[I].DamagedBefore || R.Buffers[I].DamagedAfter) {
      Failure = errorAnswer("the original kernel writes outside its buffers: check the sizes in "
                            "the pragma's buffers(...) clause");
      return nullptr;
    }
  if (References.size() >= 8) // Bounded host memory.
    References.erase(References.begin());
  return &References.emplace(Seed, std::move(R)).first->second;
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
  return errorAnswer("unknown request '" + Op + "'");
}

json WorkerState::setOriginal(const json &Request) {
  if (HasOriginal)
    Session->unload(Original);
  HasOriginal = false;
  References.clear();
  W = Request.at("workload").get<Workload>();
  Seeds = Request.at("seeds").get<std::vector<uint64_t>>();
  Watchdog = Request.at("watchdog").get<double>();
  SlowdownCap = Request.at("slowdown_cap").get<double>();
  Budget.MinSamples = Request.at("min_samples").get<unsigned>();
  Budget.MaxSamples = Request.at("max_samples").get<unsigned>();
  Budget.TargetNoise = Request.at("target_noise").get<double>();
  Budget.MaxSeconds = Request.at("max_seconds").get<double>();
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
  auto Samples = Session->time({{&Original, W.Launch}}, Seeds.front(), Budget, Why);
  if (!Samples) {
    RunResult R{Why, llvm::toString(Samples.takeError()), {}};
    return failedRun(R, "the original kernel");
  }
  TimingSummary T = summarize((*Samples)[0]);
  OriginalMs = T.MedianMs;
  json Answer = {{"status", "ok"},
                 {"compile", compileRecord(*Compiled)},
                 {"resources", Original.Resources},
                 {"timing", T}};
  // After the timing, so the profiler's replays and state cannot touch it.
  if (Request.value("profile", false)) {
    std::vector<std::string> Metrics;
    for (const char *M : defaultProfileMetrics())
      Metrics.push_back(M);
    Answer["profile"] = Session->profile(Original, W.Launch, Seeds.front(), Metrics);
  }
  return Answer;
}

json WorkerState::evaluate(const json &Request) {
  if (!HasOriginal)
    return errorAnswer("no original kernel is set");
  auto Launch = Request.at("launch").get<LaunchGeometry>();
  std::vector<uint64_t> VerifySeeds = Seeds;
  if (Request.contains("seeds") && !Request["seeds"].empty())
    VerifySeeds = Request["seeds"].get<std::vector<uint64_t>>();
  json Answer = {{"status", "ok"}};
  auto Compiled =
      compileKernel(Request.at("source").get<KernelSource>(), Session->device().smArch());
  if (!Compiled) {
    Answer["verdict"] = "compile_error";
    Answer["detail"] = llvm::toString(Compiled.takeError());
    return Answer;
  }
  Answer["compile"] = compileRecord(*Compiled);
  auto Loaded = Session->load(*Compiled, Launch);
  if (!Loaded) {
    Answer["verdict"] = "compile_error";
    Answer["detail"] = llvm::toString(Loaded.takeError());
    return Answer;
  }
  LoadedKernel Variant = *Loaded;
  Answer["resources"] = Variant.Resources;
  // The variant may be slower than the original, but not endlessly.
  double Deadline = std::max(1.0, SlowdownCap * OriginalMs / 1000);
  double WorstRatio = 0;
  unsigned Verified = 0;
  for (uint64_t Seed : VerifySeeds) {
    json Failure;
    const RunResult *Ref = reference(Seed, Failure);
    if (!Ref)
      return Failure;
    RunResult Got = Session->run(Variant, Launch, Seed, Deadline);
    if (Got.Failure != RunFailure::None) {
      json Rejected = failedRun(Got, "the variant");
      Session->unload(Variant);
      Answer["verdict"] = "launch_rejected";
      Answer["detail"] = Rejected["message"];
      return Answer;
    }
    RunVerdict V = compareRuns(W, *Ref, Got);
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
      return Answer;
    }
    WorstRatio = std::max(WorstRatio, V.WorstRatio);
    ++Verified;
  }
  Answer["seeds_verified"] = Verified;
  Answer["worst_ratio"] = WorstRatio;
  RunFailure Why;
  GpuSession::TimingBudget Timing = Budget;
  Timing.DeadlineSeconds = std::max(Deadline, Watchdog);
  auto Samples =
      Session->time({{&Original, W.Launch}, {&Variant, Launch}}, Seeds.front(), Timing, Why);
  Session->unload(Variant);
  if (!Samples) {
    RunResult R{Why, llvm::toString(Samples.takeError()), {}};
    json Rejected = failedRun(R, "timing");
    Answer["verdict"] = "launch_rejected";
    Answer["detail"] = Rejected["message"];
    return Answer;
  }
  SpeedDecision D = decideFaster((*Samples)[0], (*Samples)[1]);
  Answer["verdict"] = D.Faster ? "faster" : "not_faster";
  Answer["original"] = summarize((*Samples)[0]);
  Answer["variant"] = summarize((*Samples)[1]);
  Answer["speedup"] = D.Speedup;
  Answer["p_value"] = D.PValue;
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
