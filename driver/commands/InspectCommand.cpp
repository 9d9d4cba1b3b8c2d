#include "clang-plugin/analysis/KernelSummaryJson.h"
#include "clang-plugin/parse/CudaParseSetup.h"
#include "clang-plugin/parse/KernelFinder.h"
#include "driver/Diagnostics.h"
#include "driver/commands/FrontendSetup.h"
#include "driver/commands/KernelAnalysisJson.h"
#include "driver/commands/KernelUnitJson.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "kopt/Version.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

namespace kopt::driver {

int runInspect(const std::vector<std::string> &Arguments) {
  std::vector<std::string> Args = Arguments;
  llvm::Expected<std::optional<std::string>> UnitName = takeUnitOption(Args);
  if (!UnitName) {
    reportError("kopt inspect", UnitName.takeError());
    return 1;
  }
  llvm::Expected<SourceKernels> Loaded =
      loadSourceKernels(Args, "inspect FILE [--] [COMPILER FLAGS]");
  if (!Loaded) {
    reportError("kopt inspect", Loaded.takeError());
    return 1;
  }
  const std::string &File = Loaded->File;
  const std::vector<frontend::KernelSummary> *Kernels = &Loaded->Kernels;
  if (*UnitName)
    return printKernelUnit(*Kernels, **UnitName);
  nlohmann::ordered_json Out = {
      {"file", File}, {"kopt_version", Version}, {"kernels", nlohmann::ordered_json::array()}};
  for (const frontend::KernelSummary &K : *Kernels) {
    nlohmann::ordered_json Kernel = frontend::kernelDeclarationToJson(K);
    Kernel["unit"] = kernelUnitToJson(K.Unit);
    addKernelAnalysisJson(Kernel, K);
    Out["kernels"].push_back(std::move(Kernel));
  }
  llvm::outs() << Out.dump(2) << "\n";
  return 0;
}

} // namespace kopt::driver
