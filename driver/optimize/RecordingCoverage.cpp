#include "driver/optimize/RecordingCoverage.h"

namespace kopt::driver {

std::vector<memory::LaunchDescription>
describeLaunches(const std::vector<evaluator::RecordedLaunch> &Launches) {
  std::vector<memory::LaunchDescription> Out;
  for (const evaluator::RecordedLaunch &R : Launches) {
    memory::LaunchDescription D;
    D.Id = R.Id;
    D.Grid = R.Launch.Grid;
    D.Block = R.Launch.Block;
    D.SharedBytes = R.Launch.SharedBytes;
    for (const evaluator::KernelArg &A : R.Args)
      if (const evaluator::ScalarArg *S = A.scalar())
        D.Scalars.push_back(S->Value);
    Out.push_back(std::move(D));
  }
  return Out;
}

std::vector<std::string> scalarNamesOf(const std::vector<evaluator::RecordedLaunch> &Launches) {
  std::vector<std::string> Names;
  if (!Launches.empty())
    for (const evaluator::KernelArg &A : Launches.front().Args)
      if (A.scalar())
        Names.push_back(A.Name);
  return Names;
}

std::optional<memory::VerifiedWorkloads>
verifiedWorkloadsOf(const frontend::KernelSummary &K, const evaluator::Workload &W,
                    llvm::ArrayRef<std::string> RecordingDirs) {
  if (W.Recorded.empty())
    return std::nullopt;
  std::optional<KernelRecording> Recording = readKernelRecording(K, RecordingDirs);
  if (!Recording)
    return std::nullopt;
  std::vector<uint32_t> Ids;
  for (const evaluator::RecordedLaunch &R : W.Recorded)
    Ids.push_back(R.Id);
  return memory::describeWorkloads(scalarNamesOf(Recording->Launches),
                                   describeLaunches(Recording->Launches), std::move(Ids));
}

std::vector<uint32_t> RecordingCoverage::uncoveredIds() const {
  std::vector<uint32_t> Ids;
  for (size_t I : Coverage.Uncovered)
    Ids.push_back(Launches[I].Id);
  return Ids;
}

std::optional<RecordingCoverage>
recordingCoverage(const frontend::KernelSummary &K,
                  const std::optional<memory::VerifiedWorkloads> &Verified,
                  llvm::ArrayRef<std::string> RecordingDirs) {
  std::optional<KernelRecording> Recording = readKernelRecording(K, RecordingDirs);
  if (!Recording || Recording->Launches.empty())
    return std::nullopt;
  RecordingCoverage C;
  C.Names = scalarNamesOf(Recording->Launches);
  C.Launches = describeLaunches(Recording->Launches);
  C.Coverage = memory::coverageOf(Verified, C.Names, C.Launches);
  C.Recording = std::move(*Recording);
  return C;
}

} // namespace kopt::driver
