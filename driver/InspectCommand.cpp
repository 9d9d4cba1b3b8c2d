#include "clang-plugin/CudaParseSetup.h"
#include "clang-plugin/KernelFinder.h"
#include "driver/Diagnostics.h"
#include "driver/FrontendSetup.h"
#include "driver/KernelAnalysisJson.h"
#include "driver/KernelUnitJson.h"
#include "driver/PragmaJson.h"
#include "driver/Subcommand.h"
#include "kopt/Version.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
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
  std::string File;
  std::vector<std::string> Flags;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "--") {
      Flags.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    if (!File.empty() || (Args[I].starts_with("-") && Args[I] != "-")) {
      Flags.assign(Args.begin() + I, Args.end());
      break;
    }
    File = Args[I];
  }
  if (File.empty()) {
    reportError("kopt inspect", "no input file (usage: kopt inspect FILE [--] [COMPILER FLAGS])");
    return 1;
  }
  if (!llvm::sys::fs::exists(File)) {
    reportError("kopt inspect", "no such file: " + File);
    return 1;
  }

  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(Flags);
  if (!Setup) {
    reportError("kopt inspect", Setup.takeError());
    return 1;
  }
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels =
      frontend::findKernels(File, *Setup);
  if (!Kernels) {
    reportError("kopt inspect", Kernels.takeError());
    return 1;
  }
  if (*UnitName)
    return printKernelUnit(*Kernels, **UnitName);
  nlohmann::ordered_json Out = {
      {"file", File}, {"kopt_version", Version}, {"kernels", nlohmann::ordered_json::array()}};
  for (const frontend::KernelSummary &K : *Kernels) {
    nlohmann::ordered_json Params = nlohmann::ordered_json::array();
    for (const frontend::KernelParam &P : K.Params)
      Params.push_back({{"name", P.Name}, {"type", P.Type}});
    Out["kernels"].push_back({{"name", K.Name},
                              {"mangled_name", K.MangledName},
                              {"template", K.IsTemplate},
                              {"line", K.Line},
                              {"column", K.Column},
                              {"params", Params},
                              {"pragma", pragmaToJson(K.Pragma)},
                              {"unit", kernelUnitToJson(K.Unit)}});
    addKernelAnalysisJson(Out["kernels"].back(), K);
  }
  llvm::outs() << Out.dump(2) << "\n";
  return 0;
}

} // namespace kopt::driver
