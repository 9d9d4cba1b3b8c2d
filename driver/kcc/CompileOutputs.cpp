#include "driver/kcc/CompileOutputs.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

namespace kopt::driver {

namespace {
std::optional<llvm::StringRef> derivedOutputExtension(NvccMode Mode) {
  switch (Mode) {
  case NvccMode::Compile:
  case NvccMode::DeviceCompile:
  case NvccMode::DeviceWholeProgram:
    return ".o";
  case NvccMode::Ptx:
    return ".ptx";
  case NvccMode::Cubin:
    return ".cubin";
  case NvccMode::Fatbin:
    return ".fatbin";
  default:
    return std::nullopt;
  }
}

// -odir's value, the last one.
std::optional<std::string> outputDirectory(const NvccCommandLine &Cmd) {
  std::optional<std::string> Dir;
  for (const NvccOptionUse &Use : Cmd.Options)
    if (Use.Option->Long == "output-directory")
      Dir = Use.Value;
  return Dir;
}
} // namespace

bool compilesSources(NvccMode Mode) {
  return Mode == NvccMode::Link || derivedOutputExtension(Mode).has_value();
}

std::optional<std::string> outputOf(const NvccCommandLine &Cmd, const NvccInputFile &Source) {
  if (Cmd.Output)
    return Cmd.Output->Value;
  std::optional<llvm::StringRef> Extension = derivedOutputExtension(Cmd.Mode);
  if (!Extension)
    return std::nullopt;
  llvm::SmallString<256> Path(outputDirectory(Cmd).value_or(""));
  llvm::sys::path::append(Path, llvm::sys::path::stem(Source.Path) + *Extension);
  return std::string(Path);
}

std::optional<std::string> dependencyFileOf(const NvccCommandLine &Cmd,
                                            const std::optional<std::string> &Output) {
  if (!Cmd.DependenciesWithCompile)
    return std::nullopt;
  if (Cmd.DependencyOutput)
    return Cmd.DependencyOutput->Value;
  if (!Output)
    return std::nullopt;
  llvm::SmallString<256> Path(*Output);
  llvm::sys::path::replace_extension(Path, "d");
  return std::string(Path);
}

} // namespace kopt::driver
