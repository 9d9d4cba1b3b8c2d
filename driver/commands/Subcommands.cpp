#include "driver/commands/Subcommand.h"

namespace kopt::driver {

static const Subcommand Table[] = {
    {"inspect", "inspect FILE [--unit K] [-- FLAGS]",
     "parse a CUDA file with kopt's front end and print its kernels as JSON", runInspect},
    {"check", "check FILE [-- FLAGS]",
     "check the annotated kernels' pragmas and workloads without a GPU (for CI; exit 1 on "
     "errors)",
     runCheck},
    {"eval", "eval FILE [--kernel K] [--variant UNIT.cu [--launch G:B[:S]]] [--json] [-- FLAGS]",
     "measure an annotated kernel on the GPU; verify and time a variant against it", runEval},
    {"optimize", "optimize FILE [--kernel K] [--kopt-OPTION]... [-- FLAGS]",
     "optimize annotated kernels on the GPU and store the results in kcc's cache", runOptimize},
    {"cache", "cache ls|show K|stats|-s|gc|...",
     "the result cache (also clear, export DIR, import DIR, explain FILE, rekey FILE; -s: "
     "summary)",
     runCache},
    {"transform", "transform FILE --kernel K (--apply ID[:k=v,...] | --list) [-- FLAGS]",
     "apply mechanical transforms to a kernel's unit, or list their parameter spaces",
     runTransform},
    {"apply", "apply FILE --variant V -o OUT",
     "splice kernel variants into a CUDA file, as kcc compiles it", runApply},
    {"rewrite-tu", "rewrite-tu FILE -o OUT [OPTS]",
     "kcc's front end: check the pragmas and splice each annotated kernel's variant", runRewriteTu},
    {"record", "record [--kernel K]... [--max-bytes N] [--launches N] -- APP ARGS...",
     "run an application and record the launches of its annotated kernels (--show FILE...)",
     runRecord},
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
