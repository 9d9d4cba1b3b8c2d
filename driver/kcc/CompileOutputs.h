// Where nvcc writes what a compile makes of one source: its output (object,
// .ptx, ...) and its dependency file. kcc needs both on the rewrite path: the
// rewritten file lies beside the output, and the dependency file is edited.
#pragma once

#include "driver/nvcc/NvccCommandLine.h"

#include <optional>
#include <string>

namespace kopt::driver {

// Whether the mode compiles sources (and so may take kopt's variants).
bool compilesSources(NvccMode Mode);

// -o; else, for a mode that makes one file a source, nvcc's own name: the
// source's stem with the mode's extension (".o", ".ptx", ...) in -odir or the
// working directory. The rewritten file keeps the source's name, so nvcc gives
// its output that name too. Nothing for a link without -o.
std::optional<std::string> outputOf(const NvccCommandLine &Cmd, const NvccInputFile &Source);

// Where -MD/-MMD write the dependency file: -MF, else the output with ".d".
std::optional<std::string> dependencyFileOf(const NvccCommandLine &Cmd,
                                            const std::optional<std::string> &Output);

} // namespace kopt::driver
