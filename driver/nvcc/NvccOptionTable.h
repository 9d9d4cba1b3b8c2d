// nvcc's options as data: every option that `nvcc --help` prints (CUDA 13.0),
// plus the undocumented ones nvcc 13.0 accepts, with the syntax of their values.
//
// nvcc's rules, checked against nvcc 13.0:
//  - a long name is spelled with two dashes (--include-path), a short name with
//    one (-I); the other dash count is an unknown option (-include-path, --I);
//  - a value follows as the next argument (-o a.o) or after '=' (-o=a.o);
//  - only -I -D -U -L -l -O -t also take a joined value (-Iinc, -O3); a joined
//    value never wins over an exact name (-lineinfo, -Ofc);
//  - names are never abbreviated;
//  - a separate value is taken whatever it looks like (-o -c names "-c"),
//    except an optional one, which is not taken if it starts with '-';
//  - --help shows no value for --dependency-output (-MF) and --qpp-config, but
//    both need one; it shows values for -Ofc and -hls, which may be left out.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>
#include <string>

namespace kopt::driver {

// The options that NvccCommandLine interprets; every other known option is Other.
enum class NvccOptionId : uint8_t {
  Other,
  // Compilation phases.
  Cuda,
  Cubin,
  Fatbin,
  Ptx,
  OptixIr,
  LtoIr,
  Preprocess,
  GenerateDependencies,
  GenerateNonsystemDependencies,
  Compile,
  DeviceC,
  DeviceW,
  DeviceLink,
  Link,
  Lib,
  Run,
  // Dependency files.
  DependenciesWithCompile,
  NonsystemDependenciesWithCompile,
  DependencyOutput,
  DependencyTargets,
  DependencyTargetName,
  // Files and preprocessing.
  OutputFile,
  PreInclude,
  DefineMacro,
  UndefineMacro,
  IncludePath,
  SystemInclude,
  CompilerBindir,
  Language,
  Std,
  OptionsFile,
  // Code generation.
  GpuArchitecture,
  GpuCode,
  GenerateCode,
  RelocatableDeviceCode,
  DeviceDebug,
  GenerateLineInfo,
  Optimize,
  MaxRegCount,
  UseFastMath,
  RelaxedConstexpr,
  ExtendedLambda,
  // Options for the tools nvcc runs.
  CompilerOptions,
  LinkerOptions,
  PtxasOptions,
  NvlinkOptions,
  ForwardUnknownToHostCompiler,
  ForwardUnknownToHostLinker,
  ForwardUnknownOpts,
  // The driver itself.
  DryRun,
  Verbose,
  Keep,
  KeepDir,
  Help,
  Version,
  ListGpuCode,
  ListGpuArch,
};

enum class NvccValueKind : uint8_t {
  None,     // A flag: -c.
  Single,   // One value: -o FILE.
  Optional, // One value that may be left out: -Ofc max, -Ofc -c (see below).
  List,     // Comma-separated values, and the option may repeat: -I A,B -I C.
};

struct NvccOption {
  NvccOptionId Id;
  llvm::StringRef Long;  // Spelled --Long; empty when there is none.
  llvm::StringRef Short; // Spelled -Short; empty when there is none.
  NvccValueKind Value;
  bool Joined;     // Also takes its value joined to a one-letter short name: -Iinc.
  bool Documented; // Printed by `nvcc --help`.

  bool takesValue() const { return Value != NvccValueKind::None; }
};

llvm::ArrayRef<NvccOption> nvccOptions();

// One argument recognized as an nvcc option.
struct NvccOptionMatch {
  const NvccOption *Option;
  // The value within the same argument ("-o=a.o", "-Iinc"); nullopt when the
  // option's value, if it takes one, is the next argument.
  std::optional<llvm::StringRef> InlineValue;
};

// Recognizes Arg as an nvcc option, or nullopt when nvcc would not know it.
// A flag given an inline value (--verbose=1) still matches; nvcc rejects it.
std::optional<NvccOptionMatch> matchNvccOption(llvm::StringRef Arg);

// Whether an option matched without an inline value takes the next argument
// (nullptr at the end of the arguments) as its value. True for an option whose
// value is required, even at the end: the value is missing then.
bool takesNextArgument(const NvccOptionMatch &Match, const std::string *Next);

// The table entry for an option spelled "--long" or "-short" (for tests and
// callers that name an option); nullptr when there is none.
const NvccOption *findNvccOption(llvm::StringRef Spelling);

} // namespace kopt::driver
