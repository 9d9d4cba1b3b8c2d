// The evaluator's interface: measure an original kernel, then verify and time
// variants against it. The GPU work happens in a worker process (Worker.h), so
// a variant that faults or hangs costs a worker restart, never the caller. A
// variant's outcome (VariantOutcome, Verdict) is the worker's typed answer
// (WorkerProtocol.h).
#pragma once

#include "evaluator/compile/KernelCompiler.h"
#include "evaluator/device/GpuSession.h"
#include "evaluator/profile/KernelProfiler.h"
#include "evaluator/timing/SequentialTest.h"
#include "evaluator/timing/TimingStatistics.h"
#include "evaluator/worker/WorkerProtocol.h"
#include "evaluator/workload/Workload.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kopt::evaluator {

struct EvaluatorOptions {
  unsigned Seeds = 3;             // Random input sets each variant is verified on.
  double WatchdogSeconds = 10;    // Per launch of the original.
  double VariantSlowdownCap = 20; // A variant's launch may take this many times the original's.
  GpuSession::TimingBudget Timing;
  std::string WorkerProgram; // The executable that runs the worker; empty: this one.
  // The device's ordinal (DeviceInfo::Ordinal): the original and every variant
  // are measured on it, a restarted worker included.
  int Device = 0;
  bool Profile = true; // Read the original's hardware counters (KernelProfiler.h).
  // CUPTI's kernel replay saves and restores what the kernel writes: about 1 s
  // for 6.4 GB of buffers on an H100, a minute for 19 GB. Larger workloads go
  // unprofiled rather than spend the search's budget on it.
  uint64_t ProfileMaxBytes = uint64_t(8) << 30;
};

// The original, measured on its own.
struct Baseline {
  DeviceInfo Device;
  CompileRecord Compile;
  KernelResources Resources;
  TimingSummary Timing;
  double AchievedDramGBs = 0; // Buffer bytes moved over the median time (an estimate).
  Profile Counters;           // One launch's hardware counters, or why there are none.
  double Seconds = 0;         // Wall time of setOriginal: compile, runs, timing, profile.
  double ProfileSeconds = 0;  // Of which the profile.
  // What a device-to-device copy reached in the worker's session, in GB/s
  // (GpuSession::measureCopyRate); 0 with the reason where it was not measured.
  double CopyGBs = 0;
  std::string CopyRateMissing;
  // The launches each verification chains (Workload::Chain, shortened where
  // the original's launches would take too long; never silently: compare).
  unsigned Chain = 1;
  // With recorded launches: the launches timing is weighted over, each one's
  // share of the application's time in the kernel (WeightedTiming.h); null
  // where variants are timed on the workload's one launch.
  nlohmann::json Weighted;
};

// What an optimization loop needs from the evaluator: measure the original
// once, then verify and time variants against it. Evaluator does it on the
// GPU; tests pass fakes whose verdicts are scripted, so loops run without one.
class VariantEvaluator {
public:
  virtual ~VariantEvaluator();
  virtual llvm::Expected<Baseline> setOriginal(const KernelSource &Source, const Workload &W) = 0;
  // One launch of the original on W's first seed, in milliseconds: what a
  // kernel's share of a compile's time is weighed by, cheaper than a baseline
  // (no timing, no profile, one launch of a chain). Variants then need
  // setOriginal again. The default measures a whole baseline.
  virtual llvm::Expected<double> timeOnce(const KernelSource &Source, const Workload &W);
  // Verification and the full sequential timing (SequentialTest.h): Faster,
  // NotFaster or a failure. Seeds empty: the session's.
  virtual llvm::Expected<VariantOutcome> evaluate(const KernelSource &Variant,
                                                  const VariantLaunch &Launch,
                                                  llvm::ArrayRef<uint64_t> Seeds = {}) = 0;
  // Verification on every seed of the session and a short measurement:
  // Promising, NotFaster or a failure, never Faster. An evaluator without a
  // screen (the default) evaluates fully, and its Faster stands.
  virtual llvm::Expected<VariantOutcome> screen(const KernelSource &Variant,
                                                const VariantLaunch &Launch) {
    return evaluate(Variant, Launch);
  }
  // The full sequential timing of a variant screen() found promising (verified
  // again where the evaluator no longer holds it): Faster or NotFaster.
  virtual llvm::Expected<VariantOutcome> confirm(const KernelSource &Variant,
                                                 const VariantLaunch &Launch) {
    return evaluate(Variant, Launch);
  }
  // One launch's hardware counters of a verified variant, on the workload's
  // first seed, with the metrics the original's profile read. Never fails: a
  // profile that could not be taken says why. The default has none.
  virtual Profile profile(const KernelSource &Variant, const VariantLaunch &Launch);
};

class Worker;

class Evaluator final : public VariantEvaluator {
public:
  // Starts the worker (it opens the GPU); fails where there is none.
  static llvm::Expected<std::unique_ptr<Evaluator>> start(EvaluatorOptions Options = {});
  ~Evaluator() override;

  // Compiles and loads the original, runs it on every seed's inputs (the
  // references), and times it alone.
  llvm::Expected<Baseline> setOriginal(const KernelSource &Source, const Workload &W) override;
  llvm::Expected<double> timeOnce(const KernelSource &Source, const Workload &W) override;

  // Verifies Variant against the original on each seed (Seeds empty: the
  // session's) and, when it passes, times both interleaved.
  llvm::Expected<VariantOutcome> evaluate(const KernelSource &Variant, const VariantLaunch &Launch,
                                          llvm::ArrayRef<uint64_t> Seeds = {}) override;
  llvm::Expected<VariantOutcome> screen(const KernelSource &Variant,
                                        const VariantLaunch &Launch) override;
  llvm::Expected<VariantOutcome> confirm(const KernelSource &Variant,
                                         const VariantLaunch &Launch) override;
  Profile profile(const KernelSource &Variant, const VariantLaunch &Launch) override;

  const DeviceInfo &device() const;
  unsigned workerRestarts() const;

private:
  explicit Evaluator(EvaluatorOptions Options);
  llvm::Expected<VariantOutcome> request(const KernelSource &Variant, const VariantLaunch &Launch,
                                         llvm::ArrayRef<uint64_t> Seeds, TimingStage Stage);
  // A worker that holds the original: restarted ones get it again.
  llvm::Error ensureOriginal();
  // The set_original request for Source and W under the options (all seeds,
  // the profile where the buffers allow it), and its answer from the worker.
  OriginalRequest originalRequest(const KernelSource &Source, const Workload &W) const;
  llvm::Expected<OriginalAnswer> sendOriginal(const OriginalRequest &Request);
  EvaluatorOptions Options;
  std::unique_ptr<Worker> Process;
  DeviceInfo Device;
  std::optional<OriginalRequest> Original; // Re-sent to a restarted worker.
  std::string Unprofiled; // Why the original has no profile (variants get none either).
};

} // namespace kopt::evaluator
