// What the last `kopt record` run measured of the application as a whole: for
// each kernel it recorded, the seconds the application spent on the GPU in it
// (<cache dir>/recordings/program.json). kcc shares a build-wide budget
// (--kopt-build-budget) among the kernels in proportion to them, so that the
// time goes where the program spends its own.
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

struct RecordedKernelTime {
  std::string Symbol;
  uint64_t Launches = 0;
  double GpuSeconds = 0;
};

struct RecordedProgram {
  std::vector<std::string> Command;                  // The application, as kopt record ran it.
  std::map<std::string, RecordedKernelTime> Kernels; // By recording file name.

  double totalGpuSeconds() const;
  // Kernel's fraction of the program's recorded GPU time; none where the
  // program did not record it or spent no measurable time in any kernel.
  std::optional<double> fractionOf(const std::string &RecordingFileName) const;
};

std::string recordedProgramPath(llvm::StringRef RecordingsDir);

// Replaces the file atomically.
llvm::Error writeRecordedProgram(llvm::StringRef RecordingsDir, const RecordedProgram &P);
// None where there is no file; an error where it cannot be read or parsed.
llvm::Expected<std::optional<RecordedProgram>> readRecordedProgram(llvm::StringRef RecordingsDir);

} // namespace kopt::memory
