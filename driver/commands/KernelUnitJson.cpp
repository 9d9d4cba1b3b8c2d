#include "driver/commands/KernelUnitJson.h"

#include "driver/optimize/FrontendSetup.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

nlohmann::ordered_json kernelUnitToJson(const frontend::KernelUnit &Unit) {
  return {{"hash", Unit.Hash},
          {"text", Unit.Text},
          {"includes", Unit.Includes},
          {"macros", Unit.Macros},
          {"environment", Unit.Environment},
          {"decls", Unit.Decls},
          {"definition",
           {{"begin", Unit.Definition.Begin},
            {"end", Unit.Definition.End},
            {"begin_line", Unit.Definition.BeginLine},
            {"end_line", Unit.Definition.EndLine}}}};
}

llvm::Expected<std::optional<std::string>> takeUnitOption(std::vector<std::string> &Args) {
  for (size_t I = 0; I < Args.size() && Args[I] != "--"; ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg.consume_front("--unit=")) {
      std::string Name = Arg.str();
      Args.erase(Args.begin() + I);
      if (Name.empty())
        break;
      return Name;
    }
    if (Arg == "--unit") {
      if (I + 1 == Args.size() || Args[I + 1] == "--")
        break;
      std::string Name = Args[I + 1];
      Args.erase(Args.begin() + I, Args.begin() + I + 2);
      return Name;
    }
  }
  for (const std::string &Arg : Args) {
    if (Arg == "--")
      break;
    if (Arg == "--unit" || Arg == "--unit=")
      return llvm::createStringError("--unit needs a kernel name");
  }
  return std::nullopt;
}

llvm::Error printKernelUnit(const std::vector<frontend::KernelSummary> &Kernels,
                            llvm::StringRef Name) {
  llvm::Expected<const frontend::KernelSummary *> Found = findKernelNamed(Kernels, Name);
  if (!Found)
    return Found.takeError();
  llvm::outs() << (*Found)->Unit.Text;
  return llvm::Error::success();
}

} // namespace kopt::driver
