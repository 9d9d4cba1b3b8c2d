// What the evaluator runs: a kernel's arguments in parameter order (device
// buffers with their element type, count and direction, or scalar values),
// its launch geometry and the tolerance a variant's outputs must meet. Built
// from the `#pragma kopt optimize` clauses (see driver/optimize/WorkloadFromKernel.h).
#pragma once

#include "evaluator/workload/ScalarType.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kopt::evaluator {

enum class Direction : uint8_t { In, Out, InOut };
const char *directionName(Direction D); // "in", "out", "inout", as buffers(...) spells it.

struct Tolerance {
  double Rtol = 0, Atol = 0;
};

// buffers(a[n] in range(Lo, Hi)): inputs drawn from [Lo, Hi) instead of
// [-1, 1); integer buffers take the integers in it. Not for f16 and bf16.
struct ValueRange {
  double Lo = -1, Hi = 1;
};

// An offsets buffer (CSR row pointers: row r's elements are [p[r], p[r + 1])),
// the front end's analysis found one: element 0 is 0 and element i is
// i * Mean + J(i), J(i) the stream's integer in [0, Jitter], so every row has
// Mean - Jitter to Mean + Jitter elements (Jitter <= Mean) and the rows are
// well-formed, as the application's are. Integer buffers only.
struct OffsetsLayout {
  uint64_t Mean = 0, Jitter = 0;
  bool operator==(const OffsetsLayout &) const = default;
};

// The inputs drawn for the local-indices run (GpuSession.h's
// LocalIndicesSeed): an index buffer's elements near their own position in its
// range, as meshes, banded matrices and reordered graphs have them, where the
// seeds draw them uniformly. Count: the buffer's element count.
struct LocalIndices {
  uint64_t Count = 0;
};

struct BufferArg {
  ScalarType Element = ScalarType::F32;
  uint64_t Count = 0;
  Direction Dir = Direction::InOut;
  std::optional<Tolerance> Tol; // buffers(y[n] out tol(...)): over Workload::Tol.
  std::optional<ValueRange> Range;
  std::optional<OffsetsLayout> Offsets; // Over Range where both are set.

  BufferArg(ScalarType E = ScalarType::F32, uint64_t N = 0, Direction D = Direction::InOut,
            std::optional<Tolerance> T = std::nullopt)
      : Element(E), Count(N), Dir(D), Tol(T) {}
};

struct ScalarArg {
  ScalarType Type = ScalarType::I32;
  double Value = 0; // Integers up to 2^53 are exact.
};

struct KernelArg {
  std::string Name;
  std::variant<BufferArg, ScalarArg> Value;
  const BufferArg *buffer() const { return std::get_if<BufferArg>(&Value); }
  const ScalarArg *scalar() const { return std::get_if<ScalarArg>(&Value); }
};

struct LaunchGeometry {
  std::array<uint32_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint32_t SharedBytes = 0;
  bool operator==(const LaunchGeometry &) const = default;
};

// Defaults by element type: tight enough that a variant computing something
// else fails, loose enough for reassociated floating-point sums of moderate
// length. tol(...) in the pragma overrides them.
Tolerance defaultTolerance(ScalarType T);

// A distinct launch `kopt record` captured from the application
// (recorder/RecordingFormat.h): every variant is verified on it, with the
// buffers' recorded contents as inputs.
struct RecordedLaunch {
  uint32_t Id = 0;    // The distinct launch's number in the recording.
  uint64_t Count = 1; // How often the application made it.
  LaunchGeometry Launch;
  std::vector<KernelArg> Args; // Scalars as recorded; buffers sized by their allocations.
  // The application's launches it stands for in timing: its Count plus those
  // of the distinct launches the sample left out nearest to it (WeightedTiming.h).
  uint64_t Weight = 1;
  std::string describe() const; // "#76 (k = 76; grid(1,1,1) block(32,1,1))"
};

// Where a variant runs: its launch for the workload and, for a variant that
// remaps the launch (a transform's launch mapping), its launch for each of
// Workload::Recorded, in that order. A variant that keeps the launch leaves
// Recorded empty and runs each recorded launch as recorded.
struct VariantLaunch {
  LaunchGeometry Launch;
  std::vector<LaunchGeometry> Recorded;
  VariantLaunch(LaunchGeometry L = {}, std::vector<LaunchGeometry> R = {}) // NOLINT: implicit.
      : Launch(L), Recorded(std::move(R)) {}
};

struct Workload {
  std::vector<KernelArg> Args;
  LaunchGeometry Launch;
  std::optional<Tolerance> Tol;         // Absent: defaultTolerance per buffer.
  std::string RecordingFile;            // Where Recorded's contents are.
  std::vector<RecordedLaunch> Recorded; // Sampled from the recording; empty without one.
  // Verification launches the kernel this many times back to back on each
  // seed's inputs, every launch on what the last one left, and compares the
  // final state (clang-plugin/model/VerificationChain.h); timing stays one
  // launch. The worker shortens a chain that would take too long.
  unsigned Chain = 1;

  // Bytes of all buffers (what one run reads and writes at most, for
  // bandwidth estimates and memory checks).
  uint64_t bufferBytes() const;
};

} // namespace kopt::evaluator
