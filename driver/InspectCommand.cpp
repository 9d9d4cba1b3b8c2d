#include "clang-plugin/CudaParseSetup.h"
#include "clang-plugin/KernelFinder.h"
#include "clang-plugin/KernelSummaryJson.h"
#include "driver/Diagnostics.h"
#include "driver/FrontendSetup.h"
#include "driver/KernelAnalysisJson.h"
#include "driver/KernelUnitJson.h"
#include "driver/SourceKernels.h"
#include "driver/Subcommand.h"
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
