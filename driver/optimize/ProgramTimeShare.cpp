#include "driver/optimize/ProgramTimeShare.h"

#include "driver/optimize/WorkloadFromRecording.h"
#include "memory/cache/RecordedProgram.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Path.h>

namespace kopt::driver {

std::optional<ProgramTimeShare> programTimeShare(const frontend::KernelSummary &Kernel,
                                                 llvm::StringRef RecordingsDir, double BuildSeconds,
                                                 std::string *Warning) {
  auto Program = memory::readRecordedProgram(RecordingsDir);
  if (!Program) {
    std::string Why = llvm::toString(Program.takeError());
    if (Warning)
      *Warning = Why;
    return std::nullopt;
  }
  std::optional<std::string> Recording = findRecording(Kernel, {RecordingsDir.str()});
  if (!*Program || !Recording)
    return std::nullopt;
  std::optional<double> Fraction =
      (*Program)->fractionOf(llvm::sys::path::filename(*Recording).str());
  if (!Fraction)
    return std::nullopt;
  return ProgramTimeShare{BuildSeconds * *Fraction, *Fraction};
}

std::string describeShare(const ProgramTimeShare &Share, llvm::StringRef BuildBudget) {
  return llvm::formatv("{0:f0}% of the build budget {1}, as of the program's recorded GPU time",
                       100 * Share.Fraction, BuildBudget)
      .str();
}

} // namespace kopt::driver
