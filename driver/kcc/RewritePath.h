// kcc's rewrite path (KccPipeline.h, stage 3): each annotated source rewritten
// by kopt's front end (or replayed by direct mode) to a temporary file beside
// its output, the real compiler run on the command line with those files in
// the sources' places, the dependency files made the original's again, the
// temporary files removed.
#pragma once

#include "driver/kcc/KccPipeline.h"
#include "driver/nvcc/NvccCommandLine.h"

#include <llvm/Support/MemoryBuffer.h>

#include <memory>
#include <optional>
#include <vector>

namespace kopt::driver {

// A CUDA source for kopt's front end, with the text kcc read (once).
struct AnnotatedSource {
  const NvccInputFile *Input;
  std::unique_ptr<llvm::MemoryBuffer> Text;
};

// The compiler's exit status; nothing where no source had a kopt pragma after
// all (the front end found none: the caller compiles as written); an error
// where kopt's side failed before the compiler ran (the caller compiles the
// original). The temporary files are gone when it returns.
llvm::Expected<std::optional<int>> compileRewritten(KccContext &C, const NvccCommandLine &Cmd,
                                                    const std::vector<AnnotatedSource> &Annotated);

} // namespace kopt::driver
