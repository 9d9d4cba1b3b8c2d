#include "memory/cache/RecordedProgram.h"

#include "support/AtomicFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <nlohmann/json.hpp>

namespace kopt::memory {

double RecordedProgram::totalGpuSeconds() const {
  double Total = 0;
  for (const auto &[File, K] : Kernels)
    Total += K.GpuSeconds;
  return Total;
}

std::optional<double> RecordedProgram::fractionOf(const std::string &RecordingFileName) const {
  auto It = Kernels.find(RecordingFileName);
  double Total = totalGpuSeconds();
  if (It == Kernels.end() || !(Total > 0))
    return std::nullopt;
  return It->second.GpuSeconds / Total;
}

std::string recordedProgramPath(llvm::StringRef RecordingsDir) {
  return RecordingsDir.str() + "/program.json";
}

llvm::Error writeRecordedProgram(llvm::StringRef RecordingsDir, const RecordedProgram &P) {
  nlohmann::json Kernels = nlohmann::json::array();
  for (const auto &[File, K] : P.Kernels)
    Kernels.push_back({{"recording", File},
                       {"symbol", K.Symbol},
                       {"launches", K.Launches},
                       {"gpu_seconds", K.GpuSeconds}});
  nlohmann::json J = {{"command", P.Command}, {"kernels", Kernels}};
  return writeFileAtomically(recordedProgramPath(RecordingsDir), J.dump(2) + "\n");
}

llvm::Expected<std::optional<RecordedProgram>> readRecordedProgram(llvm::StringRef RecordingsDir) {
  std::string Path = recordedProgramPath(RecordingsDir);
  if (!llvm::sys::fs::exists(Path))
    return std::nullopt;
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return llvm::createStringError("cannot read " + Path + ": " + Text.getError().message());
  try {
    nlohmann::json J = nlohmann::json::parse((*Text)->getBuffer().str());
    RecordedProgram P;
    P.Command = J.at("command").get<std::vector<std::string>>();
    for (const nlohmann::json &K : J.at("kernels")) {
      RecordedKernelTime T{K.at("symbol").get<std::string>(), K.at("launches").get<uint64_t>(),
                           K.at("gpu_seconds").get<double>()};
      if (!(T.GpuSeconds >= 0))
        return llvm::createStringError(Path + ": a negative gpu_seconds");
      P.Kernels[K.at("recording").get<std::string>()] = std::move(T);
    }
    return P;
  } catch (const nlohmann::json::exception &E) {
    return llvm::createStringError(Path + ": " + E.what() + " (run kopt record again)");
  }
}

} // namespace kopt::memory
