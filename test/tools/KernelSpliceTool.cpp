// kopt-splice FILE INSPECT_JSON KERNEL VARIANT: prints FILE with KERNEL's
// definition (its range from `kopt inspect FILE` output) replaced by the text
// of the file VARIANT, as kcc will splice variants, after `#line 1 "FILE"`.
// For lit tests of frontend::replaceKernelDefinitions.
#include "clang-plugin/units/KernelRewrite.h"
#include "support/LineDirective.h"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

namespace {
std::string readFile(const char *Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B = llvm::MemoryBuffer::getFile(Path);
  if (!B) {
    llvm::errs() << "kopt-splice: cannot read " << Path << "\n";
    std::exit(1);
  }
  return (*B)->getBuffer().str();
}
} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 5) {
    llvm::errs() << "usage: kopt-splice FILE INSPECT_JSON KERNEL VARIANT\n";
    return 1;
  }
  nlohmann::json Inspect = nlohmann::json::parse(readFile(Argv[2]));
  for (const nlohmann::json &K : Inspect["kernels"]) {
    if (K["name"] != Argv[3])
      continue;
    const nlohmann::json &Def = K["unit"]["definition"];
    kopt::frontend::KernelReplacement R;
    R.Begin = Def["begin"].get<unsigned>();
    R.End = Def["end"].get<unsigned>();
    R.KernelName = Argv[3];
    R.Text = readFile(Argv[4]);
    llvm::Expected<std::string> Out =
        kopt::frontend::replaceKernelDefinitions(readFile(Argv[1]), Argv[1], {R});
    if (!Out) {
      llvm::errs() << "kopt-splice: " << llvm::toString(Out.takeError()) << "\n";
      return 1;
    }
    llvm::outs() << kopt::lineDirective(Argv[1], 1) << *Out;
    return 0;
  }
  llvm::errs() << "kopt-splice: no kernel named " << Argv[3] << "\n";
  return 1;
}
