// The messages between the evaluator and its worker process: JSON documents,
// each framed by its length, over a pair of pipes. Every request and answer is
// a struct here with to_json/from_json; to_json writes every field (null for
// an absent optional one) and from_json requires every field, so a message
// that lacks one is refused with the field's name, never read as a default.
// To extend a message: a member in its struct and a line in each of its two
// functions (WorkerProtocol.cpp).
#pragma once

#include "evaluator/compile/KernelCompiler.h"
#include "evaluator/device/DeviceQuery.h"
#include "evaluator/device/GpuSession.h"
#include "evaluator/profile/KernelProfiler.h"
#include "evaluator/timing/SequentialTest.h"
#include "evaluator/timing/TimingStatistics.h"
#include "evaluator/worker/JsonFields.h"
#include "evaluator/workload/Workload.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kopt::evaluator {

// ---- Values that travel inside messages.

struct CompileRecord {
  std::string Compiler, Log;
  double Seconds = 0;
};

enum class Verdict : uint8_t {
  Faster,         // Verified, and significantly faster.
  NotFaster,      // Verified; not significantly faster.
  Wrong,          // Verification failed.
  CompileError,   // Neither NVRTC nor nvcc accepted it.
  LaunchRejected, // The launch failed without a fault (resources, block size).
  Crashed,        // A fault: the worker was restarted.
  TimedOut,       // The watchdog stopped it: the worker was restarted.
  Promising,      // Verified; a screen says it may be faster: confirm() decides.
};
llvm::StringRef spelling(Verdict V);
std::optional<Verdict> parseVerdict(llvm::StringRef Spelling);

// An element of a variant's output that failed verification.
struct FailedElement {
  std::string Buffer;
  uint64_t Index = 0;
  double Got = 0, Expected = 0;
};

// A variant's evaluation: the answer to an evaluate request, and what the
// evaluator returns (Seconds is the parent's, never sent).
struct VariantOutcome {
  Verdict Result = Verdict::Wrong;
  std::string Detail; // The compile log's first error, the failing element, the fault.
  CompileRecord Compile;
  KernelResources Resources;
  unsigned SeedsVerified = 0;
  double WorstToleranceRatio = 0;
  // Where verification failed: the worst element and the first one.
  std::optional<FailedElement> Worst, First;
  TimingSummary Original, Variant; // From the same interleaved session.
  double Speedup = 0, PValue = 1;
  TimingStage Stage = TimingStage::Full;
  unsigned Samples = 0;   // Interleaved samples a side (0: screened on the verification runs).
  std::string TimingCall; // Why the measurement stopped where it did (SequentialTest.h).
  // Timed on recorded launches (WeightedTiming.h): Speedup, Original and
  // Variant are the application's mean time per launch, and this says on
  // which launches, with their shares and speedups. Null otherwise.
  nlohmann::json Weighted;
  double Seconds = 0; // Wall time of the evaluation, compile to verdict.
};

void to_json(nlohmann::json &J, const Tolerance &T);
void from_json(const nlohmann::json &J, Tolerance &T);
void to_json(nlohmann::json &J, const ValueRange &R);
void from_json(const nlohmann::json &J, ValueRange &R);
void to_json(nlohmann::json &J, const OffsetsLayout &L);
void from_json(const nlohmann::json &J, OffsetsLayout &L);
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
void to_json(nlohmann::json &J, const CompileRecord &C);
void from_json(const nlohmann::json &J, CompileRecord &C);
void to_json(nlohmann::json &J, const FailedElement &M);
void from_json(const nlohmann::json &J, FailedElement &M);
void to_json(nlohmann::json &J, const VariantOutcome &O);
void from_json(const nlohmann::json &J, VariantOutcome &O);

// ---- Requests: {"op": ..., the request's fields}.

enum class RequestOp : uint8_t { Hello, SetOriginal, Evaluate, Profile };
llvm::StringRef spelling(RequestOp Op); // "hello", "set_original", "evaluate", "profile"

// The original kernel and everything the session keeps for its variants.
struct OriginalRequest {
  KernelSource Source;
  Workload Work;
  std::vector<uint64_t> Seeds; // The random input sets variants are verified on.
  double WatchdogSeconds = 10;
  double SlowdownCap = 20;
  GpuSession::TimingBudget Timing; // Its sample limits, noise target and times.
  bool Profile = false;            // Read the original's hardware counters.
  // Only the time of its first seed's reference run (Evaluator::timeOnce): no
  // timing, no profile, and no original kept for variants.
  bool TimeOnce = false;
};
void to_json(nlohmann::json &J, const OriginalRequest &R);
void from_json(const nlohmann::json &J, OriginalRequest &R);

struct VariantRequest {
  KernelSource Source;
  LaunchGeometry Launch;
  // The variant's launch for each recorded launch, where it remaps the launch;
  // none: each recorded launch's own.
  std::optional<std::vector<LaunchGeometry>> RecordedLaunches;
  std::vector<uint64_t> Seeds; // Empty: the session's.
  TimingStage Stage = TimingStage::Full;
};
void to_json(nlohmann::json &J, const VariantRequest &R);
void from_json(const nlohmann::json &J, VariantRequest &R);

// One launch's hardware counters of a variant (the chosen one, once, after the
// search), on the session's first seed with the metrics the original's read.
struct ProfileRequest {
  KernelSource Source;
  LaunchGeometry Launch;
};
void to_json(nlohmann::json &J, const ProfileRequest &R);
void from_json(const nlohmann::json &J, ProfileRequest &R);

// A request as sent: the op and its fields.
nlohmann::json helloRequest();
nlohmann::json requestJson(const OriginalRequest &R);
nlohmann::json requestJson(const VariantRequest &R);
nlohmann::json requestJson(const ProfileRequest &R);
llvm::Expected<RequestOp> requestOp(const nlohmann::json &Request);

// ---- Answers: {"status": ..., "message": ..., the body's fields where ok}.

enum class AnswerStatus : uint8_t {
  Ok,
  Error,          // The request failed (a bad workload, a kernel that does not compile).
  LaunchRejected, // The original's launch failed without a fault.
  Crashed,        // A fault: the worker exits after this answer.
  TimedOut,       // A hang: the worker exits after this answer.
};
llvm::StringRef spelling(AnswerStatus S);

// Every answer's first fields: its status and, where it is not ok, why.
struct AnswerHead {
  AnswerStatus Status = AnswerStatus::Error;
  std::string Message;
};

struct HelloAnswer {
  DeviceInfo Device;
};
void to_json(nlohmann::json &J, const HelloAnswer &A);
void from_json(const nlohmann::json &J, HelloAnswer &A);

// What a device-to-device copy reached in the session
// (GpuSession::measureCopyRate): GB/s over Copies copies of Bytes each, the
// memory roof a kernel can hope for; or why it was not measured (GBs 0).
struct CopyRateRecord {
  double GBs = 0;
  uint64_t Bytes = 0;
  unsigned Copies = 0;
  std::string Error;
};
void to_json(nlohmann::json &J, const CopyRateRecord &R);
void from_json(const nlohmann::json &J, CopyRateRecord &R);

// The original, measured on its own.
struct OriginalAnswer {
  CompileRecord Compile;
  KernelResources Resources;
  TimingSummary Timing;
  std::optional<Profile> Counters;        // None where the request asked for no profile.
  std::optional<CopyRateRecord> CopyRate; // Measured with the profile; none without one.
  double ProfileSeconds = 0;
  // The launches each verification chains: the workload's Chain, or fewer
  // where that many of the original's launches would take too long.
  unsigned Chain = 1;
  nlohmann::json Weighted; // The weighted timing's plan, or null (WeightedTiming.h).
};
void to_json(nlohmann::json &J, const OriginalAnswer &A);
void from_json(const nlohmann::json &J, OriginalAnswer &A);

// A variant's profile (ProfileRequest).
struct ProfileAnswer {
  Profile Counters; // Or why there are none (Profile::unavailable).
  double ProfileSeconds = 0;
};
void to_json(nlohmann::json &J, const ProfileAnswer &A);
void from_json(const nlohmann::json &J, ProfileAnswer &A);

// An answer whose status is not ok.
nlohmann::json failureAnswer(const AnswerHead &Failure);
template <typename Body> nlohmann::json okAnswer(const Body &B) {
  nlohmann::json J = B;
  J["status"] = spelling(AnswerStatus::Ok);
  J["message"] = "";
  return J;
}

// An answer's status and message, or an error where it lacks them.
llvm::Expected<AnswerHead> answerHead(const nlohmann::json &Answer);

} // namespace kopt::evaluator
