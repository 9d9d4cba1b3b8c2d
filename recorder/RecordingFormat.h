// The file `kopt record` leaves for one kernel: what the application launched
// (geometry, parameter bytes, each pointer's allocation and, within the byte
// budget, the allocations' contents before and after the launch).
//
// Layout, little-endian: "KOPTREC\n", u32 version, then records, each
//   u32 kind | u64 payload length | payload | u64 FNV-1a of kind, length, payload
// appended and written through (no buffering in the process) one launch at a
// time, so an application that crashes leaves every record written before
// the crash. A reader keeps the longest valid prefix and drops a torn or
// corrupt tail with a warning. The first record describes the kernel.
//
// Plain C++ (no LLVM, no CUDA): the injection library (a shared object loaded
// into the application) writes it, kopt reads it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct iovec;

namespace kopt::recorder {

inline constexpr char RecordingMagic[8] = {'K', 'O', 'P', 'T', 'R', 'E', 'C', '\n'};
// 2: checksums over 8-byte words; 3: eight lanes; 4: Time records.
inline constexpr uint32_t RecordingVersion = 4;
// Version 3 differs only in lacking Time records: its recordings stay usable.
inline constexpr uint32_t OldestReadableVersion = 3;

// Time: how long a distinct launch's first occurrence ran on the GPU (the
// recorder waits for the device before and after it), u32 Id | f64 seconds.
enum class RecordKind : uint32_t { Kernel = 1, Launch = 2, Repeat = 3, Note = 4, Time = 5 };

struct ParamLayout {
  uint32_t Offset = 0, Size = 0; // In the kernel's parameter buffer (cuFuncGetParamInfo).
  bool operator==(const ParamLayout &) const = default;
};

struct KernelRecord {
  std::string Symbol; // The device symbol, as the driver names it (mangled).
  std::vector<ParamLayout> Params;
};

// One device allocation a pointer parameter points into (cuMemGetAddressRange).
// Contents cover the whole allocation.
struct AllocationRecord {
  uint64_t Base = 0, Bytes = 0;
  std::optional<std::vector<uint8_t>> Before; // Absent: not recorded (budget).
  std::optional<std::vector<uint8_t>> After;  // Absent: not recorded, or AfterUnchanged.
  bool AfterUnchanged = false;                // The launch left it as Before.
};

struct PointerParam {
  uint32_t Param = 0;      // Parameter index.
  uint32_t Allocation = 0; // Index into LaunchRecord::Allocations.
  uint64_t Offset = 0;     // Of the pointer's value from the allocation's base.
};

// The first occurrence of a distinct launch.
struct LaunchRecord {
  uint32_t Id = 0; // Distinct launches are numbered from 0 in the file.
  std::array<uint32_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint32_t SharedBytes = 0;
  std::vector<uint8_t> ParamBytes; // The packed parameter buffer (offsets per ParamLayout).
  std::vector<PointerParam> Pointers;
  std::vector<AllocationRecord> Allocations;
  std::string ContentsSkipped; // Why contents are missing; empty: recorded.
};

// A launch is distinct by its geometry, its scalar parameter bytes and the
// extent of every pointer's allocation past the pointer; not by the pointers'
// values (ping-pong buffers are one launch).
std::string distinctLaunchKey(const LaunchRecord &L, const std::vector<ParamLayout> &Params);

// Appends records to a recording file; every append is one writev(2) of the
// record's pieces, the buffers' contents written from where they lie (a
// 64 MiB buffer is not copied into the record first). Errors are returned as
// text (the caller logs and stops).
class RecordingWriter {
public:
  RecordingWriter() = default;
  ~RecordingWriter();
  RecordingWriter(const RecordingWriter &) = delete;
  RecordingWriter &operator=(const RecordingWriter &) = delete;

  // Creates (truncates) Path and writes the header and the kernel record.
  std::string open(const std::string &Path, const KernelRecord &Kernel,
                   uint32_t Version = RecordingVersion);
  std::string append(const LaunchRecord &L);
  std::string appendRepeat(uint32_t Id); // One more launch equal to distinct launch Id.
  std::string appendNote(const std::string &Text);
  std::string appendTime(uint32_t Id, double Seconds);
  // Bytes written so far.
  uint64_t bytes() const { return Written; }

private:
  using Pieces = std::vector<std::pair<const uint8_t *, size_t>>;
  std::string writeRecord(RecordKind Kind, const std::vector<uint8_t> &Payload);
  std::string writeRecord(RecordKind Kind, const Pieces &Payload);
  std::string writeAll(std::vector<iovec> &Io); // Advances Io past what it wrote.
  int Fd = -1;
  uint64_t Written = 0;
};

struct DistinctLaunch {
  LaunchRecord Launch;
  uint64_t Count = 1;            // Launches equal to it (itself included).
  std::optional<double> Seconds; // Its first occurrence's GPU time, where timed.
};

struct Recording {
  KernelRecord Kernel;
  std::vector<DistinctLaunch> Launches; // By Id.
  std::vector<std::string> Notes;
  uint64_t TotalLaunches = 0;
  uint64_t ContentBytes = 0; // Before and after contents stored.
  uint64_t FileBytes = 0;    // Of the valid prefix.
  std::string Warning;       // A dropped tail, where there was one.
};

struct ReadOptions {
  // false: keep only the contents' sizes (a listing, a coverage check). A
  // launch record over 1 MiB is then skimmed: its metadata read, its contents
  // and checksum skipped with a seek; a full read checks them.
  bool Contents = true;
};

// Reads Path; Error is set (and the recording empty) where the file is not a
// recording, has another version, or lacks a valid kernel record.
struct ReadResult {
  Recording Value;
  std::string Error;
};
ReadResult readRecording(const std::string &Path, const ReadOptions &Options = {});

// The seconds the recorded application spent on the GPU in this kernel: each
// distinct launch's time by its count, an untimed one at the timed launches'
// mean. None where no launch was timed (a version 3 recording).
std::optional<double> recordedGpuSeconds(const Recording &R);

// Where recordings live: <cache dir>/recordings/<file name>. The symbol is the
// name (mangled symbols are file-name safe); a long one is cut and hashed.
std::string recordingFileName(const std::string &Symbol);

uint64_t fnv1a(const uint8_t *Data, size_t Size, uint64_t Hash = 0xcbf29ce484222325ULL);

// A record's checksum: the stream cut into 64-byte blocks, word W of each
// block folded into lane W by FNV-1a's step over 8-byte words (little endian);
// then the lanes' bytes and the last bytes one by one. Fed in pieces of any
// length, it sums what one call over their concatenation would. Eight
// independent multiply chains run at the speed of memory, which mattered for
// gigabytes of recorded buffers (one chain is bound by the multiply's latency).
class RecordChecksum {
public:
  void add(const uint8_t *Data, size_t Size);
  uint64_t value() const;

private:
  void addBlocks(const uint8_t *Data, size_t Size); // Size: whole blocks.
  static constexpr std::array<uint64_t, 8> seeds() {
    std::array<uint64_t, 8> S{};
    for (size_t L = 0; L < S.size(); ++L)
      S[L] = 0xcbf29ce484222325ULL + L * 0x9e3779b97f4a7c15ULL;
    return S;
  }
  std::array<uint64_t, 8> Lanes = seeds();
  uint8_t Pending[64] = {};
  unsigned PendingBytes = 0;
};

} // namespace kopt::recorder
