// What a cache entry's variant was verified on, when `kopt record` had
// recorded the kernel's launches (issue 17): compact enough to store in every
// entry, precise enough to tell whether a later recording holds launches the
// variant never saw. It keeps the recording's launch geometries, the range of
// each scalar argument, and a digest of its distinct launches; a later
// recording is covered where its digest is the same, or where each of its
// launches has a geometry seen before and every scalar within the range seen.
// (A sampled k inside the range, on a grid seen, is interpolation: the check
// is for a recording that goes beyond, not for launches the sample skipped.)
// Needs no GPU.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

// One distinct recorded launch, as the cache describes it.
struct LaunchDescription {
  uint32_t Id = 0; // Its number in its recording.
  std::array<uint32_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint32_t SharedBytes = 0;
  std::vector<double> Scalars; // The scalar arguments, in parameter order.
  bool sameGeometry(const LaunchDescription &O) const {
    return Grid == O.Grid && Block == O.Block && SharedBytes == O.SharedBytes;
  }
  // "#7 (n = 512; k = 7; grid(3,1,1) block(128,1,1))", as the evaluator says it.
  std::string describe(const std::vector<std::string> &Names) const;
};

struct ScalarRange {
  std::string Name;
  double Min = 0, Max = 0;
};

struct VerifiedWorkloads {
  std::string Digest;                        // Of the last recording's distinct launches.
  std::vector<ScalarRange> Scalars;          // Over every recording verified on.
  std::vector<LaunchDescription> Geometries; // Distinct geometries (scalars left empty).
  std::vector<uint32_t> VerifiedIds;         // The launches run, in the last recording.
  uint64_t Launches = 0;                     // Distinct launches of the recordings.
};

// The description of a recording (its distinct launches, scalars named by
// Names) whose launches VerifiedIds were verified on.
VerifiedWorkloads describeWorkloads(const std::vector<std::string> &Names,
                                    const std::vector<LaunchDescription> &Recording,
                                    std::vector<uint32_t> VerifiedIds);

// A digest of a recording's distinct launches, whatever their order.
std::string recordingDigest(const std::vector<LaunchDescription> &Recording);

struct Coverage {
  std::vector<size_t> Uncovered; // Indexes into the recording, of launches beyond.
  std::string Why;               // For the first: "k = 120 is outside 0..99 verified".
  bool covered() const { return Uncovered.empty(); }
};

// Which of Recording's launches Verified does not cover. Without a
// description (an entry verified without a recording), none is covered.
Coverage coverageOf(const std::optional<VerifiedWorkloads> &Verified,
                    const std::vector<std::string> &Names,
                    const std::vector<LaunchDescription> &Recording);

// Verified widened by Recording (verified as well now, on its launches Ids).
VerifiedWorkloads widened(const std::optional<VerifiedWorkloads> &Verified,
                          const std::vector<std::string> &Names,
                          const std::vector<LaunchDescription> &Recording,
                          std::vector<uint32_t> Ids);

nlohmann::json workloadsToJson(const VerifiedWorkloads &W);
VerifiedWorkloads workloadsFromJson(const nlohmann::json &J); // Throws nlohmann's exceptions.

} // namespace kopt::memory
