#include "evaluator/WorkerProtocol.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace kopt::evaluator {

using nlohmann::json;

void to_json(json &J, const LaunchGeometry &L) {
  J = json{{"grid", L.Grid}, {"block", L.Block}, {"smem", L.SharedBytes}};
}
void from_json(const json &J, LaunchGeometry &L) {
  J.at("grid").get_to(L.Grid);
  J.at("block").get_to(L.Block);
  J.at("smem").get_to(L.SharedBytes);
}

namespace {
json argsJson(const std::vector<KernelArg> &Args) {
  json Out = json::array();
  for (const KernelArg &A : Args) {
    if (const BufferArg *B = A.buffer()) {
      Out.push_back({{"name", A.Name},
                     {"buffer", spelling(B->Element).str()},
                     {"count", B->Count},
                     {"dir", directionName(B->Dir)}});
      if (B->Tol)
        Out.back()["tol"] = {{"rtol", B->Tol->Rtol}, {"atol", B->Tol->Atol}};
      if (B->Range)
        Out.back()["range"] = {B->Range->Lo, B->Range->Hi};
    } else {
      Out.push_back({{"name", A.Name},
                     {"scalar", spelling(A.scalar()->Type).str()},
                     {"value", A.scalar()->Value}});
    }
  }
  return Out;
}

std::vector<KernelArg> argsFrom(const json &J) {
  std::vector<KernelArg> Args;
  for (const json &A : J) {
    KernelArg Arg;
    Arg.Name = A.at("name").get<std::string>();
    auto TypeOf = [](const json &Name) {
      auto T = parseSpelling(Name.get<std::string>());
      if (!T)
        throw std::runtime_error("unknown scalar type " + Name.dump());
      return *T;
    };
    if (A.contains("buffer")) {
      BufferArg B;
      B.Element = TypeOf(A.at("buffer"));
      B.Count = A.at("count").get<uint64_t>();
      std::string Dir = A.at("dir").get<std::string>();
      B.Dir = Dir == "in" ? Direction::In : Dir == "out" ? Direction::Out : Direction::InOut;
      if (A.contains("tol"))
        B.Tol = Tolerance{A["tol"].at("rtol").get<double>(), A["tol"].at("atol").get<double>()};
      if (A.contains("range"))
        B.Range = ValueRange{A["range"].at(0).get<double>(), A["range"].at(1).get<double>()};
      Arg.Value = B;
    } else {
      Arg.Value = ScalarArg{TypeOf(A.at("scalar")), A.at("value").get<double>()};
    }
    Args.push_back(std::move(Arg));
  }
  return Args;
}
} // namespace

void to_json(json &J, const Workload &W) {
  J = json{{"args", argsJson(W.Args)}, {"launch", W.Launch}};
  if (W.Tol)
    J["tol"] = {{"rtol", W.Tol->Rtol}, {"atol", W.Tol->Atol}};
  if (W.Recorded.empty())
    return;
  J["recording"] = W.RecordingFile;
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
  W.Args = argsFrom(J.at("args"));
  J.at("launch").get_to(W.Launch);
  if (J.contains("tol"))
    W.Tol = Tolerance{J["tol"].at("rtol").get<double>(), J["tol"].at("atol").get<double>()};
  if (!J.contains("recorded"))
    return;
  W.RecordingFile = J.at("recording").get<std::string>();
  for (const json &R : J.at("recorded")) {
    RecordedLaunch L;
    L.Id = R.at("id").get<uint32_t>();
    L.Count = R.at("count").get<uint64_t>();
    L.Weight = R.value("weight", L.Count);
    R.at("launch").get_to(L.Launch);
    L.Args = argsFrom(R.at("args"));
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
  J.at("code").get_to(S.Code);
  J.at("name").get_to(S.NameExpression);
  J.at("mangled").get_to(S.MangledName);
  J.at("options").get_to(S.Options);
}

void to_json(json &J, const DeviceInfo &D) {
  J = json{{"ordinal", D.Ordinal},
           {"name", D.Name},
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
  J.at("ordinal").get_to(D.Ordinal);
  J.at("name").get_to(D.Name);
  J.at("compute_major").get_to(D.ComputeMajor);
  J.at("compute_minor").get_to(D.ComputeMinor);
  J.at("sm_count").get_to(D.MultiprocessorCount);
  J.at("memory_bytes").get_to(D.TotalMemoryBytes);
  J.at("l2_bytes").get_to(D.L2CacheBytes);
  J.at("max_threads_per_sm").get_to(D.MaxThreadsPerMultiprocessor);
  J.at("shared_per_block_optin").get_to(D.SharedMemoryPerBlockOptin);
  J.at("memory_clock_khz").get_to(D.MemoryClockKHz);
  J.at("memory_bus_bits").get_to(D.MemoryBusWidthBits);
  D.ClockKHz = J.value("clock_khz", 0);
}

void to_json(json &J, const KernelResources &R) {
  J = json{{"registers", R.Registers},
           {"static_shared_bytes", R.StaticSharedBytes},
           {"local_bytes", R.LocalBytes},
           {"max_threads_per_block", R.MaxThreadsPerBlock},
           {"theoretical_occupancy", R.TheoreticalOccupancy}};
}
void from_json(const json &J, KernelResources &R) {
  J.at("registers").get_to(R.Registers);
  J.at("static_shared_bytes").get_to(R.StaticSharedBytes);
  J.at("local_bytes").get_to(R.LocalBytes);
  J.at("max_threads_per_block").get_to(R.MaxThreadsPerBlock);
  J.at("theoretical_occupancy").get_to(R.TheoreticalOccupancy);
}

void to_json(json &J, const TimingSummary &T) {
  J = json{{"samples", T.Samples}, {"median_ms", T.MedianMs}, {"p20_ms", T.P20Ms},
           {"p80_ms", T.P80Ms},    {"min_ms", T.MinMs},       {"relative_noise", T.RelativeNoise}};
}
void from_json(const json &J, TimingSummary &T) {
  J.at("samples").get_to(T.Samples);
  J.at("median_ms").get_to(T.MedianMs);
  J.at("p20_ms").get_to(T.P20Ms);
  J.at("p80_ms").get_to(T.P80Ms);
  J.at("min_ms").get_to(T.MinMs);
  J.at("relative_noise").get_to(T.RelativeNoise);
}

void to_json(json &J, const Profile &P) {
  J = json{{"metrics", P.Metrics}, {"skipped", P.Skipped}, {"error", P.Error}};
}
void from_json(const json &J, Profile &P) {
  P.Metrics.clear();
  for (const auto &[Name, Value] : J.at("metrics").items())
    P.Metrics[Name] = Value.get<double>();
  J.at("skipped").get_to(P.Skipped);
  J.at("error").get_to(P.Error);
}

llvm::Error writeMessage(int Fd, const json &Message) {
  std::string Body = Message.dump();
  uint64_t Size = Body.size();
  std::string Frame(reinterpret_cast<const char *>(&Size), sizeof(Size));
  Frame += Body;
  size_t Done = 0;
  while (Done < Frame.size()) {
    ssize_t N = ::write(Fd, Frame.data() + Done, Frame.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return llvm::createStringError("the evaluation worker's pipe is closed (%s)",
                                     std::strerror(errno));
    Done += static_cast<size_t>(N);
  }
  return llvm::Error::success();
}

namespace {
// Reads exactly Size bytes before Deadline (steady clock seconds; < 0: none).
ReadFailure readExactly(int Fd, char *Out, size_t Size,
                        std::chrono::steady_clock::time_point Deadline, bool HasDeadline) {
  size_t Done = 0;
  while (Done < Size) {
    int Wait = -1;
    if (HasDeadline) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      Deadline - std::chrono::steady_clock::now())
                      .count();
      if (Left <= 0)
        return ReadFailure::TimedOut;
      Wait = static_cast<int>(std::min<long long>(Left, 1 << 30));
    }
    pollfd P{Fd, POLLIN, 0};
    int Ready = ::poll(&P, 1, Wait);
    if (Ready < 0 && errno == EINTR)
      continue;
    if (Ready == 0)
      return ReadFailure::TimedOut;
    ssize_t N = ::read(Fd, Out + Done, Size - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return ReadFailure::Closed;
    Done += static_cast<size_t>(N);
  }
  return ReadFailure::None;
}
} // namespace

llvm::Expected<json> readMessage(int Fd, double TimeoutSeconds, ReadFailure &Failure) {
  bool HasDeadline = TimeoutSeconds >= 0;
  auto Deadline =
      std::chrono::steady_clock::now() +
      std::chrono::microseconds(static_cast<int64_t>((HasDeadline ? TimeoutSeconds : 0) * 1e6));
  uint64_t Size = 0;
  Failure = readExactly(Fd, reinterpret_cast<char *>(&Size), sizeof(Size), Deadline, HasDeadline);
  std::string Body;
  if (Failure == ReadFailure::None) {
    if (Size > (1ull << 32)) {
      Failure = ReadFailure::Malformed;
      return llvm::createStringError("the evaluation worker sent a malformed message");
    }
    Body.resize(Size);
    Failure = readExactly(Fd, Body.data(), Size, Deadline, HasDeadline);
  }
  if (Failure == ReadFailure::Closed)
    return llvm::createStringError("the evaluation worker's pipe closed");
  if (Failure == ReadFailure::TimedOut)
    return llvm::createStringError("no answer from the evaluation worker in %.0f s",
                                   TimeoutSeconds);
  json Message = json::parse(Body, nullptr, /*allow_exceptions=*/false);
  if (Message.is_discarded()) {
    Failure = ReadFailure::Malformed;
    return llvm::createStringError("the evaluation worker sent malformed JSON");
  }
  return Message;
}

} // namespace kopt::evaluator
