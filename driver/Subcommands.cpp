#include "driver/Subcommand.h"

namespace kopt::driver {

static const Subcommand Table[] = {
    {"inspect", "inspect FILE [--unit K] [-- FLAGS]",
     "parse a CUDA file with kopt's front end and print its kernels as JSON", runInspect},
    {"device", "device [--json]", "list the GPUs the NVIDIA driver sees", runDevice},
    {"skills", "skills [show ID|facts|record] [--json]",
     "list the optimization skills with their record, show one, record an outcome", runSkills},
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
