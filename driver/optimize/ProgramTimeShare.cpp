#include "driver/optimize/ProgramTimeShare.h"

#include "driver/optimize/WorkloadFromRecording.h"
#include "memory/cache/RecordedProgram.h"
#include "support/Duration.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Path.h>

namespace kopt::driver {

std::optional<ProgramTimeShare> programTimeShare(const frontend::KernelSummary &Kernel,
                                                 llvm::StringRef RecordingsDir,
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
  return ProgramTimeShare{*Fraction, (*Program)->Kernels.size()};
}

SharedPool sharedPool(const ProgramTimeShare &Share, std::optional<double> BuildBudgetSeconds,
                      llvm::StringRef BuildBudgetText, double KernelBudgetSeconds,
                      llvm::StringRef KernelBudgetText) {
  if (BuildBudgetSeconds)
    return {*BuildBudgetSeconds, "the build budget " + BuildBudgetText.str()};
  double Seconds = KernelBudgetSeconds * double(Share.Kernels);
  return {Seconds, llvm::formatv("{0} ({1} for each of {2} recorded kernels)",
                                 formatDuration(Seconds), KernelBudgetText, Share.Kernels)
                       .str()};
}

std::string describeShare(const ProgramTimeShare &Share, const SharedPool &Pool) {
  return llvm::formatv("{0:f0}% of {1}, by the program's recorded GPU time", 100 * Share.Fraction,
                       Pool.Words)
      .str();
}

} // namespace kopt::driver
