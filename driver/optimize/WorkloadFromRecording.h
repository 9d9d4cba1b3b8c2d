// A kernel's workload with the launches `kopt record` captured from the
// application (recorder/RecordingFormat.h). Recordings are found by the
// kernel's device symbol (the mangled name the driver reports at run time;
// the unit hash does not exist in the application's process) under
// <cache dir>/recordings/; a recording whose parameters no longer match the
// kernel's signature is ignored with a warning (record again).
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "evaluator/workload/Workload.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

// At most this many distinct recorded launches are verified, sampled evenly
// over the recorded values of the kernel's scalars.
inline constexpr size_t MaxRecordedLaunches = 16;

// Up to Limit of All, evenly spaced in the order of their scalar values (the
// first and the last always among them), each weighted (RecordedLaunch::Weight)
// by its own count and those of the launches left out nearest to it.
std::vector<evaluator::RecordedLaunch>
sampleRecordedLaunches(std::vector<evaluator::RecordedLaunch> All, size_t Limit);

// The kernel's recording in the first of Dirs that has one.
std::optional<std::string> findRecording(const frontend::KernelSummary &Kernel,
                                         llvm::ArrayRef<std::string> Dirs);

// The workload the evaluator runs for Kernel:
//  - with a recording in RecordingDirs: the pragma's launch/args/buffers where
//    it has them all, else the application's most frequent launch, plus the
//    recorded launches (with contents) to verify every variant on;
//  - without: the pragma's (workloadFor), and for a bare pragma (no launch,
//    args or buffers clause) the error "kernel K has no workload: ...".
// Warning gets a note about an unusable recording. Only (not empty): the
// recorded launches verified on are these distinct launches' alone. Notes:
// workloadFor's, where the pragma's workload is used.
llvm::Expected<evaluator::Workload>
workloadWithRecording(const frontend::KernelSummary &Kernel, llvm::StringRef File,
                      llvm::ArrayRef<std::string> RecordingDirs, std::string *Warning = nullptr,
                      llvm::ArrayRef<uint32_t> Only = {},
                      std::vector<std::string> *Notes = nullptr);

// Every distinct launch of the kernel's recording (with contents or not),
// typed by its signature; none where there is no usable recording.
struct KernelRecording {
  std::string Path;
  std::vector<evaluator::RecordedLaunch> Launches;
};
std::optional<KernelRecording> readKernelRecording(const frontend::KernelSummary &Kernel,
                                                   llvm::ArrayRef<std::string> RecordingDirs);

} // namespace kopt::driver
