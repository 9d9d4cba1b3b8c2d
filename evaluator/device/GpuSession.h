// The evaluator's side of the GPU, inside the worker process (Worker.h): one
// context and stream, a workload's buffers with guard zones, kernels loaded
// from cubins, single runs with a watchdog, and timed runs. Nothing here
// survives a fault: the worker exits and is restarted.
#pragma once

#include "evaluator/compile/KernelCompiler.h"
#include "evaluator/device/CudaDriver.h"
#include "evaluator/device/DeviceKernels.h"
#include "evaluator/device/DeviceQuery.h"
#include "evaluator/device/DeviceVerify.h"
#include "evaluator/profile/KernelProfiler.h"
#include "evaluator/workload/OutputComparison.h"
#include "evaluator/workload/Workload.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kopt::evaluator {

struct KernelResources {
  int Registers = 0, StaticSharedBytes = 0, LocalBytes = 0, MaxThreadsPerBlock = 0;
  double TheoreticalOccupancy = 0; // Resident threads per SM at the launch / the SM's maximum.
};

struct LoadedKernel {
  CUmodule Module = nullptr;
  CUfunction Function = nullptr;
  KernelResources Resources;
};

enum class RunFailure : uint8_t {
  None,
  LaunchRejected, // The launch itself failed (too many threads, too much shared memory).
  Fault,          // A sticky error: illegal address, trap. The context is lost.
  Hang,           // The watchdog's deadline passed. The context is lost.
};

// What one run left around each buffer: the first damaged byte of its guard
// zones (relative to the guard's start). The elements stay on the device
// (GpuSession::compareBuffer).
struct BufferState {
  std::optional<uint64_t> DamagedBefore, DamagedAfter;
};

struct RunResult {
  RunFailure Failure = RunFailure::None;
  std::string Message;
  std::vector<BufferState> Buffers; // Workload order of the buffer arguments.
  double Ms = 0;                    // The first launch, by CUDA events (no L2 flush before it).
  unsigned Launches = 0;            // Made, the first included: the chain as run.
};

// A run's launches: Launches back to back, each on what the last one left.
// With MaxSeconds (> 0), fewer where the first launch's time says that many
// would take longer: the run says how many it made (RunResult::Launches).
struct LaunchChain {
  unsigned Launches = 1;
  double MaxSeconds = 0;
};

class GpuSession {
public:
  // A context on the device of this ordinal (DeviceInfo::Ordinal).
  static llvm::Expected<std::unique_ptr<GpuSession>> open(int Ordinal);
  ~GpuSession();
  GpuSession(const GpuSession &) = delete;
  GpuSession &operator=(const GpuSession &) = delete;

  const DeviceInfo &device() const { return Device; }

  llvm::Expected<LoadedKernel> load(const CompiledKernel &Kernel, const LaunchGeometry &Launch);
  void unload(LoadedKernel &Kernel);

  // Allocates W's buffers (each between two guard zones) and their restore
  // copies; drops the reference outputs of the previous workload.
  llvm::Error prepare(const Workload &W);

  // Runs on RecordedSeed start from these bytes, one vector per buffer
  // argument (workload order; `kopt record`'s contents), instead of generated
  // inputs. prepare() clears them.
  static constexpr uint64_t RecordedSeed = ~uint64_t(0);
  void setRecordedInputs(std::vector<std::vector<uint8_t>> Inputs);

  // Runs on LocalIndicesSeed draw their inputs as that seed does, except the
  // buffers InputGenerator.h's drawsLocalIndices picks: local indices.
  static constexpr uint64_t LocalIndicesSeed = ~uint64_t(0) - 1;
  // Whether a run on LocalIndicesSeed would draw any buffer of W differently.
  static bool hasLocalIndices(const Workload &W);

  // One run on the inputs drawn from Seed: inputs generated on the device,
  // output-only buffers poisoned, guards filled; then the launch, waited for
  // at most Deadline seconds, and the rest of Chain's launches (nothing
  // restored between them), waited for at most Deadline seconds each; then
  // the guards read back.
  RunResult run(const LoadedKernel &Kernel, const LaunchGeometry &Launch, uint64_t Seed,
                double DeadlineSeconds, LaunchChain Chain = {});

  // Reference outputs: copies, on the device, of the written buffers as the
  // last run left them, one set per seed. keepReference evicts the oldest
  // sets while the device lacks memory for another (at most MaxReferenceSets);
  // it fails only where not even one set fits.
  bool hasReference(uint64_t Seed) const;
  llvm::Error keepReference(uint64_t Seed);
  static constexpr size_t MaxReferenceSets = 8;

  // Buffer BufferIndex (workload order of the buffer arguments) as the last
  // run on Seed left it, compared on the device: an input-only buffer bytewise
  // with its generated inputs, a written one with Seed's reference under Tol.
  llvm::Expected<BufferComparison> compareBuffer(size_t BufferIndex, uint64_t Seed,
                                                 const Tolerance &Tol);

  struct TimedKernel {
    const LoadedKernel *Kernel;
    LaunchGeometry Launch;
  };
  struct TimingBudget {
    unsigned MinSamples = 10, MaxSamples = 200; // A kernel; MinSamples: the original's alone.
    double TargetNoise = 0.01;                  // Relative standard error of each median.
    double MaxSeconds = 3;                      // Wall time for the whole measurement.
    double ScreenSeconds = 1;                   // Wall time for a screen (SequentialTest.h).
    double DeadlineSeconds = 10;
    bool WarmUp = true; // One untimed run each first (left out for long kernels).
    // L2 flushed before every sample (cold). Without: the data the restore
    // just wrote stays in L2, as a program's next launch often finds it (warm).
    bool FlushL2 = true;
  };
  // After each round of samples: true ends the measurement. Seconds: since it began.
  using RoundCheck =
      llvm::function_ref<bool(llvm::ArrayRef<std::vector<double>> Samples, double Seconds)>;
  // Samples in milliseconds per kernel, interleaved (ABBA...), on Seed's inputs:
  // writable buffers restored and L2 flushed (unless !FlushL2) before every sample, outside the
  // timed region, until Done says so or MaxSamples rounds. A failure of any
  // kernel ends the measurement.
  llvm::Expected<std::vector<std::vector<double>>> time(llvm::ArrayRef<TimedKernel> Kernels,
                                                        uint64_t Seed, const TimingBudget &Budget,
                                                        RunFailure &Failure, RoundCheck Done);

  // The hardware counters of one launch of Kernel on Seed's inputs
  // (KernelProfiler.h), outside any timing. Never fails: a profile that could
  // not be taken says why.
  Profile profile(const LoadedKernel &Kernel, const LaunchGeometry &Launch, uint64_t Seed,
                  llvm::ArrayRef<std::string> Metrics);

  // What a device-to-device copy reaches: bytes read and written over the
  // copies' time, in GB/s, the memory roof a kernel can hope for (an H200's
  // 4.8 TB/s of peak copies at about 4.2). Times CopyRounds copies of up to
  // CopyBytes, far beyond the L2, between two temporary buffers.
  struct CopyRate {
    double GBs = 0;
    uint64_t Bytes = 0;
    unsigned Copies = 0;
  };
  llvm::Expected<CopyRate> measureCopyRate();
  static constexpr uint64_t CopyBytes = uint64_t(256) << 20;
  static constexpr unsigned CopyRounds = 10;

private:
  GpuSession() = default;
  struct DeviceBuffer {
    CUdeviceptr Base = 0, Pristine = 0; // Pristine: the restore copy (in-out buffers).
    uint64_t Bytes = 0;
  };
  struct ReferenceSet {
    uint64_t Seed = 0;
    std::vector<CUdeviceptr> Copies; // Per buffer; 0 for input-only buffers.
  };
  llvm::Error upload(uint64_t Seed);
  void dropOldestReference();
  DeviceContext deviceContext();
  llvm::Error launch(const LoadedKernel &Kernel, const LaunchGeometry &Launch);
  RunFailure waitFor(CUevent Event, double DeadlineSeconds, std::string &Message);
  RunFailure classify(CUresult Result, const char *Call, std::string &Message);
  void releaseBuffers();

  CudaDriver *Driver = nullptr;
  CUdevice Dev = 0;
  CUcontext Context = nullptr;
  CUstream Stream = nullptr;
  CUevent Start = nullptr, Stop = nullptr;
  CUdeviceptr Flush = 0;
  uint64_t FlushBytes = 0;
  DeviceInfo Device;
  Workload Current;
  std::vector<DeviceBuffer> Buffers;   // One per buffer argument.
  std::vector<const BufferArg *> Args; // Into Current, parallel to Buffers.
  std::deque<ReferenceSet> References; // Oldest first.
  std::vector<std::vector<uint8_t>> RecordedInputs;
  DeviceKernels Own;        // Input generation and comparison.
  CUdeviceptr Partials = 0; // The comparison kernel's per-block results.
};

// Bytes on each side of every buffer that must keep GuardByte.
inline constexpr uint64_t GuardBytes = 16384;

} // namespace kopt::evaluator
