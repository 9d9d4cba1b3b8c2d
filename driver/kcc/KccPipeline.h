// One kcc compile, stage by stage (docs/architecture.md#kccs-compile-flow):
//   1. the command line: kopt's flags split off, the compiler resolved
//   2. no CUDA source with `#pragma kopt` (or mode off, or not nvcc): exec the
//      real compiler unchanged, the fast path
//   3. the rewrite path (RewritePath.h): each annotated source rewritten to a
//      temporary file beside its output, the real compiler run on them,
//      dependency files fixed, temporary files removed
// Any failure on kopt's side falls back to compiling the original with one
// warning, unless --kopt-strict. Every compile without kopt is counted by
// its reason (Fallback.h).
#pragma once

#include "driver/config/KoptOptions.h"
#include "driver/kcc/CompilerResolver.h"

namespace kopt::driver {

struct KccContext {
  ResolvedCompiler Compiler;
  KoptOptions Options;
  SplitCommandLine Split; // For re-applying flags over .kopt.yaml values.
  GetEnvFn GetEnv;
};

// Runs the compile; returns the exit status (the real compiler's, or kcc's own
// when it fails before handing over).
int runKccPipeline(KccContext &Context);

} // namespace kopt::driver
