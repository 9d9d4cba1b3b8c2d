// nvcc's whole command line as kcc sees it: the expanded arguments (see
// NvccArgExpansion.h), every option recognized through the option table (see
// NvccOptionTable.h), the inputs, and what nvcc will do with them.
//
// nvcc's rules that shape the model, checked against nvcc 13.0:
//  - -x applies to every input, wherever it stands, even to a .o: the last -x
//    wins ("a.cpp -x cu" compiles a.cpp as CUDA). nvcc rejects "-x none"; here
//    it clears an earlier -x;
//  - the phase is not the last one given but the one that stops earliest:
//    -M/-MM, -E, -optix-ir, -ltoir, -ptx, -cubin, -fatbin, -cuda, then -c/-dc/-dw,
//    -dlink, -lib, -run, and linking by default;
//  - -arch takes one value and the last one wins; -code and -gencode add up,
//    and -gencode adds to -arch;
//  - list values split as NvccValues.h says;
//  - an argument that is not an nvcc option and starts with '-' is an unknown
//    option: it takes no value, so "-foo bar" makes bar an input.
#pragma once

#include "driver/nvcc/NvccArgExpansion.h"
#include "driver/nvcc/NvccOptionTable.h"
#include "driver/nvcc/NvccValues.h"

#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

enum class NvccMode {
  Link,                 // The default: compile and link.
  Compile,              // -c
  DeviceCompile,        // -dc: -c with relocatable device code.
  DeviceWholeProgram,   // -dw: -c with executable device code.
  DeviceLink,           // -dlink
  Preprocess,           // -E
  GenerateDependencies, // -M, -MM
  Ptx,
  Cubin,
  Fatbin,
  Cuda,    // -cuda: .cu to .cu.cpp.ii
  LtoIr,   // -ltoir
  OptixIr, // -optix-ir
  Lib,
  Run,
};

enum class NvccInputKind {
  CudaSource,    // .cu .cup, or anything under -x cu.
  CSource,       // .c .i, or anything under -x c.
  CxxSource,     // .cpp .cc .cxx .C .ii, or anything under -x c++.
  Object,        // .o .obj
  Archive,       // .a .lib
  SharedLibrary, // .so
  Ptx,
  Cubin,
  Fatbin,
  Other,
};

struct NvccInputFile {
  std::string Path;
  NvccInputKind Kind;
  size_t ArgIndex; // Into NvccCommandLine::Args.
};

// A recognized option where it stands in NvccCommandLine::Args.
struct NvccOptionUse {
  const NvccOption *Option;
  size_t ArgIndex;   // The option itself.
  size_t ArgCount;   // 2 when the value is the next argument, else 1.
  std::string Value; // Empty for a flag.
};

// One value of an option, and where the option stands.
struct NvccValue {
  std::string Value;
  size_t ArgIndex;
};

// One use of a list option: the raw value and its items.
struct NvccListValue {
  std::string Raw;
  std::vector<std::string> Items;
  size_t ArgIndex;
};

struct NvccMacro {
  bool Define;      // -D; false for -U.
  std::string Text; // "N=4", "DEBUG", or the macro to undefine.
  size_t ArgIndex;
};

struct NvccUnknownOption {
  std::string Arg;
  size_t ArgIndex;
};

struct NvccCommandLine {
  // The expanded command line; every index below points into it. It holds
  // NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS: a real nvcc run on it must not
  // see those variables again.
  std::vector<std::string> Args;
  // Every recognized option in order, also those not modeled below.
  std::vector<NvccOptionUse> Options;
  std::vector<NvccUnknownOption> Unknown;
  std::vector<NvccInputFile> Inputs;

  NvccMode Mode = NvccMode::Link;
  std::optional<NvccValue> Output;   // -o, the last one.
  std::optional<NvccValue> Language; // -x, the last one ("cu", "c++", "c").

  std::vector<NvccValue> IncludeDirs;       // -I, per item.
  std::vector<NvccValue> SystemIncludeDirs; // -isystem, per item.
  std::vector<NvccMacro> Macros;            // -D and -U interleaved, per item.
  std::vector<NvccValue> PreIncludes;       // -include, per item.
  std::optional<NvccValue> Std;             // -std, the last one.

  std::vector<NvccValue> GpuArchitectures; // -arch in order; nvcc uses the last.
  std::vector<NvccValue> GpuCodes;         // -code, per item.
  std::vector<NvccGenerateCode> GenerateCodes;
  std::optional<bool> RelocatableDeviceCode; // -rdc, the last one.

  std::optional<NvccValue> CompilerBindir; // -ccbin
  // nvcc pastes the items unquoted into the shell command that runs the tool,
  // so shell syntax in them takes effect (checked for -Xcompiler: with
  // -Xcompiler '-DX="a b"', X expands to a b; with -D'X="a b"', to "a b").
  std::vector<NvccListValue> CompilerOptions; // -Xcompiler
  std::vector<NvccListValue> PtxasOptions;    // -Xptxas
  std::vector<NvccListValue> LinkerOptions;   // -Xlinker
  std::vector<NvccListValue> NvlinkOptions;   // -Xnvlink

  bool DependenciesWithCompile = false;         // -MD or -MMD
  bool NonsystemDependencies = false;           // -MM or -MMD
  bool DependencyTargets = false;               // -MP
  std::optional<NvccValue> DependencyOutput;    // -MF
  std::vector<NvccValue> DependencyTargetNames; // -MT

  bool ForwardUnknownToHostCompiler = false; // Also set by -forward-unknown-opts.
  bool ForwardUnknownToHostLinker = false;
  bool Verbose = false;
  bool Version = false;
  bool Help = false;
  bool DryRun = false;
  bool Keep = false; // -keep or -save-temps
  std::optional<NvccValue> KeepDir;

  bool DeviceDebug = false; // -G
  bool LineInfo = false;    // -lineinfo
  bool UseFastMath = false;
  bool RelaxedConstexpr = false;        // --expt-relaxed-constexpr
  bool ExtendedLambda = false;          // --extended-lambda, --expt-extended-lambda
  std::optional<NvccValue> Optimize;    // -O, the last one.
  std::optional<NvccValue> MaxRegCount; // -maxrregcount, the last one.

  // The inputs nvcc compiles as CUDA.
  std::vector<const NvccInputFile *> cudaSources() const;
  // -I, -isystem, -D, -U, -include and -std in clang's spelling, in the
  // command line's order: "-Idir", "-isystem" "dir", "-DN=4", "-UN",
  // "-include" "file", "-std=c++17".
  std::vector<std::string> preprocessorFlags() const;
  // The real GPU architectures (sm_XX, sm_XXa, sm_XXf) that device code is built
  // for, from -arch, -code and -gencode, first occurrence first. Empty when none
  // is named; virtual ones (compute_XX, lto_XX) and native, all and all-major
  // are not listed (see GpuArchitectures).
  std::vector<std::string> targetArchitectures() const;
  // Whether nvcc compiles device code from a CUDA source: neither preprocessing
  // nor dependency generation, nor --help, --version or the -list-gpu-* queries.
  bool compilesDeviceCode() const;
  // -rdc=true, or -dc.
  bool relocatableDeviceCode() const;
  // Whether the command line has the option, in any spelling.
  bool has(NvccOptionId Id) const;
};

// Args excludes argv[0]. Fails like nvcc on: an option that needs a value at
// the end of the line (or of an options file), a flag given a value, an
// options or response file that cannot be read, nests too deep or includes
// itself, a malformed -gencode, and a -rdc value that is not true or false.
// What nvcc takes a file for by its extension alone (no -x).
NvccInputKind nvccInputKindByExtension(llvm::StringRef Path);

llvm::Expected<NvccCommandLine> parseNvccCommandLine(const std::vector<std::string> &Args,
                                                     const NvccParseEnvironment &Env);

} // namespace kopt::driver
