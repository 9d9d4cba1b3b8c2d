// Recorded launches as the result cache describes them
// (memory/cache/VerifiedWorkloads.h): what an entry records it was verified
// on, and which launches of the kernel's current recording go beyond that.
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "driver/optimize/WorkloadFromRecording.h"
#include "evaluator/workload/Workload.h"
#include "memory/cache/VerifiedWorkloads.h"

#include <llvm/ADT/ArrayRef.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

std::vector<memory::LaunchDescription>
describeLaunches(const std::vector<evaluator::RecordedLaunch> &Launches);

// The scalar parameters' names, in order, as the launches have them.
std::vector<std::string> scalarNamesOf(const std::vector<evaluator::RecordedLaunch> &Launches);

// What a variant verified on W records in its entry: W's recording (all of its
// distinct launches, from RecordingDirs) and the launches of it W verified on.
// None where W has no recorded launches.
std::optional<memory::VerifiedWorkloads>
verifiedWorkloadsOf(const frontend::KernelSummary &Kernel, const evaluator::Workload &W,
                    llvm::ArrayRef<std::string> RecordingDirs);

// The kernel's current recording against what an entry was verified on.
struct RecordingCoverage {
  KernelRecording Recording;
  std::vector<std::string> Names;
  std::vector<memory::LaunchDescription> Launches; // Parallel to Recording.Launches.
  memory::Coverage Coverage;
  std::vector<uint32_t> uncoveredIds() const;
};
// None where the kernel has no usable recording in RecordingDirs.
std::optional<RecordingCoverage>
recordingCoverage(const frontend::KernelSummary &Kernel,
                  const std::optional<memory::VerifiedWorkloads> &Verified,
                  llvm::ArrayRef<std::string> RecordingDirs);

} // namespace kopt::driver
