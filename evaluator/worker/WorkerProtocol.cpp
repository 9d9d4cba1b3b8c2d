#include "evaluator/worker/WorkerProtocol.h"

namespace kopt::evaluator {

using nlohmann::json;

void to_json(json &J, const LaunchGeometry &L) {
  J = json{{"grid", L.Grid}, {"block", L.Block}, {"smem", L.SharedBytes}};
}
void from_json(const json &J, LaunchGeometry &L) {
  readField(J, "grid", L.Grid);
  readField(J, "block", L.Block);
  readField(J, "smem", L.SharedBytes);
}

void to_json(json &J, const Tolerance &T) { J = {{"rtol", T.Rtol}, {"atol", T.Atol}}; }
void from_json(const json &J, Tolerance &T) {
  readField(J, "rtol", T.Rtol);
  readField(J, "atol", T.Atol);
}
// As buffers(...) writes it: range(lo, hi).
void to_json(json &J, const ValueRange &R) { J = {R.Lo, R.Hi}; }
void from_json(const json &J, ValueRange &R) {
  if (!J.is_array() || J.size() != 2)
    throw std::runtime_error("a range is [lo, hi], not " + J.dump());
  J.at(0).get_to(R.Lo);
  J.at(1).get_to(R.Hi);
}

void to_json(json &J, const OffsetsLayout &L) { J = {{"mean", L.Mean}, {"jitter", L.Jitter}}; }
void from_json(const json &J, OffsetsLayout &L) {
  readField(J, "mean", L.Mean);
  readField(J, "jitter", L.Jitter);
}

namespace {
ScalarType scalarTypeFrom(const json &J, const char *Key) {
  std::string Name;
  readField(J, Key, Name);
  auto T = parseSpelling(Name);
  if (!T)
    throw std::runtime_error("unknown scalar type '" + Name + "'");
  return *T;
}

json argsJson(const std::vector<KernelArg> &Args) {
  json Out = json::array();
  for (const KernelArg &A : Args) {
    if (const BufferArg *B = A.buffer())
      Out.push_back({{"name", A.Name},
                     {"buffer", spelling(B->Element).str()},
                     {"count", B->Count},
                     {"dir", directionName(B->Dir)},
                     {"tol", optionalJson(B->Tol)},
                     {"range", optionalJson(B->Range)},
                     {"offsets", optionalJson(B->Offsets)}});
    else
      Out.push_back({{"name", A.Name},
                     {"scalar", spelling(A.scalar()->Type).str()},
                     {"value", A.scalar()->Value}});
  }
  return Out;
}

std::vector<KernelArg> argsFrom(const json &J) {
  std::vector<KernelArg> Args;
  for (const json &A : J) {
    KernelArg Arg;
    readField(A, "name", Arg.Name);
    if (A.contains("buffer")) {
      BufferArg B;
      B.Element = scalarTypeFrom(A, "buffer");
      readField(A, "count", B.Count);
      std::string Dir;
      readField(A, "dir", Dir);
      B.Dir = Dir == "in" ? Direction::In : Dir == "out" ? Direction::Out : Direction::InOut;
      readField(A, "tol", B.Tol);
      readField(A, "range", B.Range);
      readField(A, "offsets", B.Offsets);
      Arg.Value = B;
    } else {
      ScalarArg S;
      S.Type = scalarTypeFrom(A, "scalar");
      readField(A, "value", S.Value);
      Arg.Value = S;
    }
    Args.push_back(std::move(Arg));
  }
  return Args;
}

struct ArgList {
  std::vector<KernelArg> Args;
};
void from_json(const json &J, ArgList &L) { L.Args = argsFrom(J); }
} // namespace

void to_json(json &J, const Workload &W) {
  J = json{{"args", argsJson(W.Args)},
           {"launch", W.Launch},
           {"tol", optionalJson(W.Tol)},
           {"chain", W.Chain},
           {"recording", W.RecordingFile}};
  json Recorded = json::array();
  for (const RecordedLaunch &R : W.Recorded)
    Recorded.push_back({{"id", R.Id},
                        {"count", R.Count},
                        {"weight", R.Weight},
                        {"launch", R.Launch},
                        {"args", argsJson(R.Args)}});
  J["recorded"] = Recorded;
}

void from_json(const json &J, Workload &W) {
  W = Workload();
  ArgList Args;
  readField(J, "args", Args);
  W.Args = std::move(Args.Args);
  readField(J, "launch", W.Launch);
  readField(J, "tol", W.Tol);
  readField(J, "chain", W.Chain);
  if (W.Chain == 0)
    throw std::runtime_error("'chain' is 0: a verification runs at least one launch");
  readField(J, "recording", W.RecordingFile);
  json Recorded;
  readField(J, "recorded", Recorded);
  for (const json &R : Recorded) {
    RecordedLaunch L;
    readField(R, "id", L.Id);
    readField(R, "count", L.Count);
    readField(R, "weight", L.Weight);
    readField(R, "launch", L.Launch);
    ArgList RecordedArgs;
    readField(R, "args", RecordedArgs);
    L.Args = std::move(RecordedArgs.Args);
    W.Recorded.push_back(std::move(L));
  }
}

void to_json(json &J, const KernelSource &S) {
  J = json{{"code", S.Code},
           {"name", S.NameExpression},
           {"mangled", S.MangledName},
           {"options", S.Options}};
}
void from_json(const json &J, KernelSource &S) {
  readField(J, "code", S.Code);
  readField(J, "name", S.NameExpression);
  readField(J, "mangled", S.MangledName);
  readField(J, "options", S.Options);
}

void to_json(json &J, const DeviceInfo &D) {
  J = json{{"ordinal", D.Ordinal},
           {"name", D.Name},
           {"uuid", D.Uuid},
           {"arch", D.smArch()},
           {"compute_major", D.ComputeMajor},
           {"compute_minor", D.ComputeMinor},
           {"sm_count", D.MultiprocessorCount},
           {"memory_bytes", D.TotalMemoryBytes},
           {"l2_bytes", D.L2CacheBytes},
           {"max_threads_per_sm", D.MaxThreadsPerMultiprocessor},
           {"shared_per_block_optin", D.SharedMemoryPerBlockOptin},
           {"memory_clock_khz", D.MemoryClockKHz},
           {"memory_bus_bits", D.MemoryBusWidthBits},
           {"clock_khz", D.ClockKHz},
           {"peak_dram_gbs", D.peakDramGBs()},
           {"peak_fp32_gflops", D.peakFp32Gflops()},
           {"peak_fp64_gflops", D.peakFp64Gflops()}};
}
void from_json(const json &J, DeviceInfo &D) {
  readField(J, "ordinal", D.Ordinal);
  readField(J, "name", D.Name);
  readField(J, "uuid", D.Uuid);
  readField(J, "compute_major", D.ComputeMajor);
  readField(J, "compute_minor", D.ComputeMinor);
  readField(J, "sm_count", D.MultiprocessorCount);
  readField(J, "memory_bytes", D.TotalMemoryBytes);
  readField(J, "l2_bytes", D.L2CacheBytes);
  readField(J, "max_threads_per_sm", D.MaxThreadsPerMultiprocessor);
  readField(J, "shared_per_block_optin", D.SharedMemoryPerBlockOptin);
  readField(J, "memory_clock_khz", D.MemoryClockKHz);
  readField(J, "memory_bus_bits", D.MemoryBusWidthBits);
  readField(J, "clock_khz", D.ClockKHz);
}

void to_json(json &J, const KernelResources &R) {
  J = json{{"registers", R.Registers},
           {"static_shared_bytes", R.StaticSharedBytes},
           {"local_bytes", R.LocalBytes},
           {"max_threads_per_block", R.MaxThreadsPerBlock},
           {"theoretical_occupancy", R.TheoreticalOccupancy}};
}
void from_json(const json &J, KernelResources &R) {
  readField(J, "registers", R.Registers);
  readField(J, "static_shared_bytes", R.StaticSharedBytes);
  readField(J, "local_bytes", R.LocalBytes);
  readField(J, "max_threads_per_block", R.MaxThreadsPerBlock);
  readField(J, "theoretical_occupancy", R.TheoreticalOccupancy);
}

void to_json(json &J, const TimingSummary &T) {
  J = json{{"samples", T.Samples}, {"median_ms", T.MedianMs}, {"p20_ms", T.P20Ms},
           {"p80_ms", T.P80Ms},    {"min_ms", T.MinMs},       {"relative_noise", T.RelativeNoise}};
}
void from_json(const json &J, TimingSummary &T) {
  readField(J, "samples", T.Samples);
  readField(J, "median_ms", T.MedianMs);
  readField(J, "p20_ms", T.P20Ms);
  readField(J, "p80_ms", T.P80Ms);
  readField(J, "min_ms", T.MinMs);
  readField(J, "relative_noise", T.RelativeNoise);
}

void to_json(json &J, const Profile &P) {
  J = json{{"metrics", P.Metrics}, {"skipped", P.Skipped}, {"error", P.Error}};
}
void from_json(const json &J, Profile &P) {
  P.Metrics.clear();
  json Metrics;
  readField(J, "metrics", Metrics);
  for (const auto &[Name, Value] : Metrics.items())
    P.Metrics[Name] = Value.get<double>();
  readField(J, "skipped", P.Skipped);
  readField(J, "error", P.Error);
}

void to_json(json &J, const CompileRecord &C) {
  J = json{{"compiler", C.Compiler}, {"log", C.Log}, {"seconds", C.Seconds}};
}
void from_json(const json &J, CompileRecord &C) {
  readField(J, "compiler", C.Compiler);
  readField(J, "log", C.Log);
  readField(J, "seconds", C.Seconds);
}

llvm::StringRef spelling(Verdict V) {
  static const char *const Names[] = {"faster",          "not_faster", "wrong",     "compile_error",
                                      "launch_rejected", "crashed",    "timed_out", "promising"};
  return Names[static_cast<unsigned>(V)];
}

std::optional<Verdict> parseVerdict(llvm::StringRef Spelling) {
  for (Verdict V :
       {Verdict::Faster, Verdict::NotFaster, Verdict::Wrong, Verdict::CompileError,
        Verdict::LaunchRejected, Verdict::Crashed, Verdict::TimedOut, Verdict::Promising})
    if (spelling(V) == Spelling)
      return V;
  return std::nullopt;
}

void to_json(json &J, const FailedElement &M) {
  J = json{{"buffer", M.Buffer},
           {"index", M.Index},
           {"got", doubleJson(M.Got)},
           {"expected", doubleJson(M.Expected)}};
}
void from_json(const json &J, FailedElement &M) {
  readField(J, "buffer", M.Buffer);
  readField(J, "index", M.Index);
  readDouble(J, "got", M.Got);
  readDouble(J, "expected", M.Expected);
}

namespace {
std::optional<TimingStage> parseStage(llvm::StringRef Spelling) {
  for (TimingStage S : {TimingStage::Full, TimingStage::Screen, TimingStage::Confirm})
    if (spelling(S) == Spelling)
      return S;
  return std::nullopt;
}

TimingStage stageFrom(const json &J) {
  std::string Name;
  readField(J, "stage", Name);
  std::optional<TimingStage> S = parseStage(Name);
  if (!S)
    throw std::runtime_error("unknown timing stage '" + Name + "'");
  return *S;
}
} // namespace

void to_json(json &J, const VariantOutcome &O) {
  J = json{{"verdict", spelling(O.Result)},
           {"detail", O.Detail},
           {"compile", O.Compile},
           {"resources", O.Resources},
           {"seeds_verified", O.SeedsVerified},
           {"worst_ratio", doubleJson(O.WorstToleranceRatio)},
           {"worst", optionalJson(O.Worst)},
           {"first", optionalJson(O.First)},
           {"original", O.Original},
           {"variant", O.Variant},
           {"speedup", doubleJson(O.Speedup)},
           {"p_value", O.PValue},
           {"stage", spelling(O.Stage)},
           {"samples", O.Samples},
           {"timing_call", O.TimingCall},
           {"weighted", O.Weighted}};
}
void from_json(const json &J, VariantOutcome &O) {
  std::string Name;
  readField(J, "verdict", Name);
  std::optional<Verdict> V = parseVerdict(Name);
  if (!V)
    throw std::runtime_error("unknown verdict '" + Name + "'");
  O.Result = *V;
  readField(J, "detail", O.Detail);
  readField(J, "compile", O.Compile);
  readField(J, "resources", O.Resources);
  readField(J, "seeds_verified", O.SeedsVerified);
  readDouble(J, "worst_ratio", O.WorstToleranceRatio);
  readField(J, "worst", O.Worst);
  readField(J, "first", O.First);
  readField(J, "original", O.Original);
  readField(J, "variant", O.Variant);
  readDouble(J, "speedup", O.Speedup);
  readField(J, "p_value", O.PValue);
  O.Stage = stageFrom(J);
  readField(J, "samples", O.Samples);
  readField(J, "timing_call", O.TimingCall);
  readField(J, "weighted", O.Weighted);
}

llvm::StringRef spelling(RequestOp Op) {
  static const char *const Names[] = {"hello", "set_original", "evaluate", "profile"};
  return Names[static_cast<unsigned>(Op)];
}

void to_json(json &J, const OriginalRequest &R) {
  J = json{{"source", R.Source},
           {"workload", R.Work},
           {"seeds", R.Seeds},
           {"watchdog", R.WatchdogSeconds},
           {"slowdown_cap", R.SlowdownCap},
           {"min_samples", R.Timing.MinSamples},
           {"max_samples", R.Timing.MaxSamples},
           {"target_noise", R.Timing.TargetNoise},
           {"max_seconds", R.Timing.MaxSeconds},
           {"screen_seconds", R.Timing.ScreenSeconds},
           {"profile", R.Profile},
           {"time_once", R.TimeOnce}};
}
void from_json(const json &J, OriginalRequest &R) {
  readField(J, "source", R.Source);
  readField(J, "workload", R.Work);
  readField(J, "seeds", R.Seeds);
  readField(J, "watchdog", R.WatchdogSeconds);
  readField(J, "slowdown_cap", R.SlowdownCap);
  readField(J, "min_samples", R.Timing.MinSamples);
  readField(J, "max_samples", R.Timing.MaxSamples);
  readField(J, "target_noise", R.Timing.TargetNoise);
  readField(J, "max_seconds", R.Timing.MaxSeconds);
  readField(J, "screen_seconds", R.Timing.ScreenSeconds);
  readField(J, "profile", R.Profile);
  readField(J, "time_once", R.TimeOnce);
}

void to_json(json &J, const VariantRequest &R) {
  J = json{{"source", R.Source},
           {"launch", R.Launch},
           {"recorded_launches", optionalJson(R.RecordedLaunches)},
           {"seeds", R.Seeds},
           {"stage", spelling(R.Stage)}};
}
void from_json(const json &J, VariantRequest &R) {
  readField(J, "source", R.Source);
  readField(J, "launch", R.Launch);
  readField(J, "recorded_launches", R.RecordedLaunches);
  readField(J, "seeds", R.Seeds);
  R.Stage = stageFrom(J);
}

void to_json(json &J, const ProfileRequest &R) {
  J = json{{"source", R.Source}, {"launch", R.Launch}};
}
void from_json(const json &J, ProfileRequest &R) {
  readField(J, "source", R.Source);
  readField(J, "launch", R.Launch);
}

json helloRequest() { return {{"op", spelling(RequestOp::Hello)}}; }
json requestJson(const OriginalRequest &R) {
  json J = R;
  J["op"] = spelling(RequestOp::SetOriginal);
  return J;
}
json requestJson(const VariantRequest &R) {
  json J = R;
  J["op"] = spelling(RequestOp::Evaluate);
  return J;
}
json requestJson(const ProfileRequest &R) {
  json J = R;
  J["op"] = spelling(RequestOp::Profile);
  return J;
}

llvm::Expected<RequestOp> requestOp(const json &Request) {
  auto Op = Request.is_object() ? Request.find("op") : Request.end();
  if (Op == Request.end() || !Op->is_string())
    return llvm::createStringError("the request has no 'op'");
  for (RequestOp O :
       {RequestOp::Hello, RequestOp::SetOriginal, RequestOp::Evaluate, RequestOp::Profile})
    if (spelling(O) == Op->get<std::string>())
      return O;
  return llvm::createStringError("unknown request '%s'", Op->get<std::string>().c_str());
}

llvm::StringRef spelling(AnswerStatus S) {
  static const char *const Names[] = {"ok", "error", "launch_rejected", "crashed", "timed_out"};
  return Names[static_cast<unsigned>(S)];
}

void to_json(json &J, const HelloAnswer &A) { J = json{{"device", A.Device}}; }
void from_json(const json &J, HelloAnswer &A) { readField(J, "device", A.Device); }

void to_json(json &J, const CopyRateRecord &R) {
  J = json{{"gbs", R.GBs}, {"bytes", R.Bytes}, {"copies", R.Copies}, {"error", R.Error}};
}
void from_json(const json &J, CopyRateRecord &R) {
  readField(J, "gbs", R.GBs);
  readField(J, "bytes", R.Bytes);
  readField(J, "copies", R.Copies);
  readField(J, "error", R.Error);
}

void to_json(json &J, const OriginalAnswer &A) {
  J = json{{"compile", A.Compile},
           {"resources", A.Resources},
           {"timing", A.Timing},
           {"profile", optionalJson(A.Counters)},
           {"copy_rate", optionalJson(A.CopyRate)},
           {"profile_seconds", A.ProfileSeconds},
           {"chain", A.Chain},
           {"weighted", A.Weighted}};
}
void from_json(const json &J, OriginalAnswer &A) {
  readField(J, "compile", A.Compile);
  readField(J, "resources", A.Resources);
  readField(J, "timing", A.Timing);
  readField(J, "profile", A.Counters);
  readField(J, "copy_rate", A.CopyRate);
  readField(J, "profile_seconds", A.ProfileSeconds);
  readField(J, "chain", A.Chain);
  readField(J, "weighted", A.Weighted);
}

void to_json(json &J, const ProfileAnswer &A) {
  J = json{{"profile", A.Counters}, {"profile_seconds", A.ProfileSeconds}};
}
void from_json(const json &J, ProfileAnswer &A) {
  readField(J, "profile", A.Counters);
  readField(J, "profile_seconds", A.ProfileSeconds);
}

json failureAnswer(const AnswerHead &Failure) {
  return {{"status", spelling(Failure.Status)}, {"message", Failure.Message}};
}

llvm::Expected<AnswerHead> answerHead(const json &Answer) {
  struct Head {
    std::string Status, Message;
  };
  auto Read = [](const json &J) {
    Head H;
    readField(J, "status", H.Status);
    readField(J, "message", H.Message);
    return H;
  };
  Head H;
  try {
    H = Read(Answer);
  } catch (const MissingField &E) {
    return llvm::createStringError("the evaluation worker's answer has no '%s'", E.Path.c_str());
  } catch (const std::exception &E) {
    return llvm::createStringError("the evaluation worker's answer is malformed: %s", E.what());
  }
  for (AnswerStatus S : {AnswerStatus::Ok, AnswerStatus::Error, AnswerStatus::LaunchRejected,
                         AnswerStatus::Crashed, AnswerStatus::TimedOut})
    if (spelling(S) == H.Status)
      return AnswerHead{S, H.Message};
  return llvm::createStringError("the evaluation worker's answer has an unknown status '%s'",
                                 H.Status.c_str());
}

} // namespace kopt::evaluator
