#include "driver/Subcommand.h"

namespace kopt::driver {

static const Subcommand Table[] = {
    {"inspect", "inspect FILE [--unit K] [-- FLAGS]",
     "parse a CUDA file with kopt's front end and print its kernels as JSON", runInspect},
    {"apply", "apply FILE --variant V -o OUT",
     "splice kernel variants into a CUDA file, as kcc compiles it", runApply},
    {"rewrite-tu", "rewrite-tu FILE -o OUT [OPTS]",
     "kcc's front end: check the pragmas and splice each annotated kernel's variant", runRewriteTu},
    {"device", "device [--json]", "list the GPUs the NVIDIA driver sees", runDevice},
    {"version", "version", "print kopt's version and toolchain", runVersion},
};

llvm::ArrayRef<Subcommand> allSubcommands() { return Table; }

const Subcommand *findSubcommand(llvm::StringRef Name) {
  for (const Subcommand &S : Table)
    if (S.Name == Name)
      return &S;
  return nullptr;
}

} // namespace kopt::driver
