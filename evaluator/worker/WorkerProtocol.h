// The messages between the evaluator and its worker process: JSON documents,
// each framed by its length, over a pair of pipes.
#pragma once

#include "evaluator/compile/KernelCompiler.h"
#include "evaluator/device/GpuSession.h"
#include "evaluator/profile/KernelProfiler.h"
#include "evaluator/timing/TimingStatistics.h"
#include "evaluator/workload/Workload.h"

#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

namespace kopt::evaluator {

void to_json(nlohmann::json &J, const Workload &W);
void from_json(const nlohmann::json &J, Workload &W);
void to_json(nlohmann::json &J, const LaunchGeometry &L);
void from_json(const nlohmann::json &J, LaunchGeometry &L);
void to_json(nlohmann::json &J, const KernelSource &S);
void from_json(const nlohmann::json &J, KernelSource &S);
void to_json(nlohmann::json &J, const DeviceInfo &D);
void from_json(const nlohmann::json &J, DeviceInfo &D);
void to_json(nlohmann::json &J, const KernelResources &R);
void from_json(const nlohmann::json &J, KernelResources &R);
void to_json(nlohmann::json &J, const TimingSummary &T);
void from_json(const nlohmann::json &J, TimingSummary &T);
void to_json(nlohmann::json &J, const Profile &P);
void from_json(const nlohmann::json &J, Profile &P);

// Writes one message; fails when the other end is gone.
llvm::Error writeMessage(int Fd, const nlohmann::json &Message);

// Reads one message, waiting at most TimeoutSeconds (< 0: forever). The error
// says whether the other end closed the pipe or the time ran out.
enum class ReadFailure : uint8_t { None, Closed, TimedOut, Malformed };
llvm::Expected<nlohmann::json> readMessage(int Fd, double TimeoutSeconds, ReadFailure &Failure);

} // namespace kopt::evaluator
