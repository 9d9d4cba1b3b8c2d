// The recorder inside the application: for each launch of an annotated
// kernel, the launch's geometry and parameters, each pointer's allocation
// and, for the first occurrence of a distinct launch and within the byte
// budget, the allocations' contents before and after it, and how long it ran
// on the GPU (RecordingFormat.h).
// It never changes what the application computes and never fails it: an
// error goes to the log and the recorder disables itself.
//
// The GPU is reached through DeviceAccess (the driver, in the injection
// library; a fake in tests).
#pragma once

#include "recorder/HostBufferPool.h"
#include "recorder/RecordingFormat.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace kopt::recorder {

// From `kopt record`, through the environment (see environmentNames()).
struct RecorderConfig {
  std::string Dir;                       // Where the .krec files go.
  std::vector<std::string> Kernels;      // Symbols or unqualified names; "*" records every kernel.
  uint64_t MaxBytes = uint64_t(1) << 30; // Contents, before and after, all kernels together.
  uint32_t MaxDistinct = 1000;           // Distinct launches recorded per kernel.
  std::string LogPath;                   // The session log kopt record reads; empty: stderr.
  static RecorderConfig fromEnvironment();
};

inline constexpr const char *RecordDirVar = "KOPT_RECORD_DIR";
inline constexpr const char *RecordKernelsVar = "KOPT_RECORD_KERNELS";
inline constexpr const char *RecordMaxBytesVar = "KOPT_RECORD_MAX_BYTES";
inline constexpr const char *RecordLaunchesVar = "KOPT_RECORD_LAUNCHES";
inline constexpr const char *RecordLogVar = "KOPT_RECORD_LOG";

// Symbol names Name: the symbol itself, or the kernel's unqualified name
// (`saxpy` for `_Z5saxpyifPKfPf`, `ns::t<float>` and `t`).
bool kernelMatches(const std::string &Symbol, const std::string &Name);

class DeviceAccess {
public:
  virtual ~DeviceAccess();
  // The parameter buffer's layout; false where the driver cannot say.
  virtual bool paramLayout(void *Function, std::vector<ParamLayout> &Params) = 0;
  // The allocation Address lies in; false where it is no device address.
  virtual bool allocationOf(uint64_t Address, uint64_t &Base, uint64_t &Bytes) = 0;
  virtual bool isCapturing(void *Stream) = 0;
  // Waits for all work of the current context; the error text on failure.
  virtual std::string synchronize() = 0;
  virtual std::string copyToHost(uint64_t Address, uint64_t Bytes, uint8_t *Out) = 0;
  // Page-locks host memory, which copies reach without staging; false where
  // it cannot (copies into it still work).
  virtual bool pinHost(uint8_t *Data, uint64_t Bytes);
  virtual void unpinHost(uint8_t *Data);
};

struct LaunchCall {
  void *Function = nullptr;
  std::string Symbol;
  std::array<uint32_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint32_t SharedBytes = 0;
  void *Stream = nullptr;
  void **KernelParams = nullptr;
  void **Extra = nullptr;
};

class LaunchRecorder {
public:
  LaunchRecorder(RecorderConfig Config, DeviceAccess &Device);
  ~LaunchRecorder();

  // Around one launch, on the launching thread: enter before the driver runs
  // it, exit after (Launched: the driver accepted it). enter returns whether
  // exit must be called.
  bool enter(const LaunchCall &Call);
  void exit(bool Launched);

  // A launch kopt cannot record (a graph launch): noted in the log.
  void skip(const std::string &What);

  bool disabled() const { return Disabled; }

private:
  struct KernelState;
  struct Pending;
  KernelState *stateFor(const LaunchCall &Call);
  bool capture(const LaunchCall &Call, KernelState &K, LaunchRecord &L);
  void finish(Pending &P); // Writes a launch the driver accepted (Lock held).
  void log(const std::string &Line);
  void fail(const std::string &Error);

  RecorderConfig Config;
  DeviceAccess &Device;
  HostBufferPool Buffers; // For contents; after Device, before Current.
  std::mutex Lock;
  bool Disabled = false;
  uint64_t BudgetLeft = 0;
  std::unordered_map<void *, KernelState *> ByFunction; // nullptr: not recorded.
  std::unordered_map<std::string, std::unique_ptr<KernelState>> BySymbol;
  std::unique_ptr<Pending> Current; // The first occurrence in flight (Lock held).
};

} // namespace kopt::recorder
