#include "driver/nvcc/NvccOptionTable.h"

namespace kopt::driver {

namespace {
using Id = NvccOptionId;
using llvm::StringRef;

constexpr NvccOption flag(StringRef Long, StringRef Short, Id I = Id::Other) {
  return {I, Long, Short, NvccValueKind::None, /*Joined=*/false, /*Documented=*/true};
}
constexpr NvccOption single(StringRef Long, StringRef Short, Id I = Id::Other) {
  return {I, Long, Short, NvccValueKind::Single, /*Joined=*/false, /*Documented=*/true};
}
constexpr NvccOption optionalValue(StringRef Long, StringRef Short) {
  return {Id::Other, Long, Short, NvccValueKind::Optional, /*Joined=*/false, /*Documented=*/true};
}
constexpr NvccOption list(StringRef Long, StringRef Short, Id I = Id::Other) {
  return {I, Long, Short, NvccValueKind::List, /*Joined=*/false, /*Documented=*/true};
}
constexpr NvccOption joined(NvccOption O) {
  O.Joined = true;
  return O;
}
constexpr NvccOption hidden(NvccOption O) {
  O.Documented = false;
  return O;
}

// In `nvcc --help` order. A value is a list where the help prints "<x>,...".
const NvccOption Table[] = {
    // Options for specifying the compilation phase.
    flag("cuda", "cuda", Id::Cuda),
    flag("cubin", "cubin", Id::Cubin),
    flag("fatbin", "fatbin", Id::Fatbin),
    flag("ptx", "ptx", Id::Ptx),
    flag("optix-ir", "optix-ir", Id::OptixIr),
    flag("ltoir", "ltoir", Id::LtoIr),
    flag("preprocess", "E", Id::Preprocess),
    flag("generate-dependencies", "M", Id::GenerateDependencies),
    flag("generate-nonsystem-dependencies", "MM", Id::GenerateNonsystemDependencies),
    flag("generate-dependencies-with-compile", "MD", Id::DependenciesWithCompile),
    flag("generate-nonsystem-dependencies-with-compile", "MMD",
         Id::NonsystemDependenciesWithCompile),
    single("dependency-output", "MF", Id::DependencyOutput), // The help shows no value.
    flag("generate-dependency-targets", "MP", Id::DependencyTargets),
    flag("compile", "c", Id::Compile),
    flag("device-c", "dc", Id::DeviceC),
    flag("device-w", "dw", Id::DeviceW),
    flag("device-link", "dlink", Id::DeviceLink),
    flag("link", "link", Id::Link),
    flag("lib", "lib", Id::Lib),
    flag("run", "run", Id::Run),
    // File and path specifications.
    single("output-file", "o", Id::OutputFile),
    list("pre-include", "include", Id::PreInclude),
    flag("objdir-as-tempdir", "objtemp"),
    joined(list("library", "l")),
    joined(list("define-macro", "D", Id::DefineMacro)),
    joined(list("undefine-macro", "U", Id::UndefineMacro)),
    joined(list("include-path", "I", Id::IncludePath)),
    list("system-include", "isystem", Id::SystemInclude),
    joined(list("library-path", "L")),
    single("output-directory", "odir"),
    single("compiler-bindir", "ccbin", Id::CompilerBindir),
    flag("allow-unsupported-compiler", "allow-unsupported-compiler"),
    single("archiver-binary", "arbin"),
    single("cudart", "cudart"),
    single("cudadevrt", "cudadevrt"),
    single("libdevice-directory", "ldir"),
    single("target-directory", "target-dir"),
    flag("use-local-env", "use-local-env"),
    flag("force-cl-env-setup", "force-cl-env-setup"),
    // Options for specifying behavior of compiler/linker.
    flag("profile", "pg"),
    flag("debug", "g"),
    flag("device-debug", "G", Id::DeviceDebug),
    flag("generate-line-info", "lineinfo", Id::GenerateLineInfo),
    list("optimization-info", "opt-info"),
    joined(single("optimize", "O", Id::Optimize)),
    optionalValue("Ofast-compile", "Ofc"),
    single("dopt", "dopt"),
    flag("dlink-time-opt", "dlto"),
    flag("lto", "lto"),
    flag("gen-opt-lto", "gen-opt-lto"),
    single("ftemplate-backtrace-limit", "ftemplate-backtrace-limit"),
    single("ftemplate-depth", "ftemplate-depth"),
    flag("no-exceptions", "noeh"),
    flag("shared", "shared"),
    single("x", "x", Id::Language),
    single("std", "std", Id::Std),
    flag("no-host-device-initializer-list", "nohdinitlist"),
    flag("no-host-device-move-forward", "nohdmoveforward"),
    flag("expt-relaxed-constexpr", "expt-relaxed-constexpr", Id::RelaxedConstexpr),
    flag("extended-lambda", "extended-lambda", Id::ExtendedLambda),
    flag("expt-extended-lambda", "expt-extended-lambda", Id::ExtendedLambda),
    single("machine", "m"),
    flag("m64", "m64"),
    // Options for passing specific phase options.
    list("compiler-options", "Xcompiler", Id::CompilerOptions),
    list("linker-options", "Xlinker", Id::LinkerOptions),
    list("archive-options", "Xarchive"),
    list("ptxas-options", "Xptxas", Id::PtxasOptions),
    list("nvlink-options", "Xnvlink", Id::NvlinkOptions),
    // Miscellaneous options for guiding the compiler driver.
    single("static-global-template-stub", "static-global-template-stub"),
    single("device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility"),
    flag("forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler",
         Id::ForwardUnknownToHostCompiler),
    flag("forward-unknown-to-host-linker", "forward-unknown-to-host-linker",
         Id::ForwardUnknownToHostLinker),
    flag("forward-unknown-opts", "forward-unknown-opts", Id::ForwardUnknownOpts),
    flag("dont-use-profile", "noprof"),
    flag("dryrun", "dryrun", Id::DryRun),
    flag("verbose", "v", Id::Verbose),
    joined(single("threads", "t")),
    single("split-compile", "split-compile"),
    single("split-compile-extended", "split-compile-extended"),
    flag("fdevice-syntax-only", "fdevice-syntax-only"),
    single("fdevice-time-trace", "fdevice-time-trace"),
    flag("keep", "keep", Id::Keep),
    single("keep-dir", "keep-dir", Id::KeepDir),
    flag("save-temps", "save-temps", Id::Keep),
    flag("clean-targets", "clean"),
    single("time", "time"),
    list("run-args", "run-args"),
    single("input-drive-prefix", "idp"),
    single("dependency-drive-prefix", "ddp"),
    single("drive-prefix", "dp"),
    single("dependency-target-name", "MT", Id::DependencyTargetName),
    flag("no-align-double", ""), // The help prints no short name; -no-align-double is unknown.
    flag("no-device-link", "nodlink"),
    // Options for steering GPU code generation.
    single("gpu-architecture", "arch", Id::GpuArchitecture),
    list("gpu-code", "code", Id::GpuCode),
    list("generate-code", "gencode", Id::GenerateCode),
    single("relocatable-device-code", "rdc", Id::RelocatableDeviceCode),
    list("entries", "e"),
    single("maxrregcount", "maxrregcount", Id::MaxRegCount),
    flag("use_fast_math", "use_fast_math", Id::UseFastMath),
    single("ftz", "ftz"),
    single("prec-div", "prec-div"),
    single("prec-sqrt", "prec-sqrt"),
    single("fmad", "fmad"),
    flag("extra-device-vectorization", "extra-device-vectorization"),
    // Options for steering cuda compilation.
    single("default-stream", "default-stream"),
    // Generic tool options.
    flag("disable-warnings", "w"),
    flag("keep-device-functions", "keep-device-functions"),
    flag("source-in-ptx", "src-in-ptx"),
    flag("restrict", "restrict"),
    flag("Wreorder", "Wreorder"),
    flag("Wdefault-stream-launch", "Wdefault-stream-launch"),
    flag("Wmissing-launch-bounds", "Wmissing-launch-bounds"),
    flag("Wext-lambda-captures-this", "Wext-lambda-captures-this"),
    flag("Wno-deprecated-declarations", "Wno-deprecated-declarations"),
    flag("Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets"),
    list("Werror", "Werror"),
    flag("resource-usage", "res-usage"),
    flag("extensible-whole-program", "ewp"),
    flag("no-compress", "no-compress"),
    single("qpp-config", "qpp-config"), // The help prints no value, but nvcc requires one.
    flag("compile-as-tools-patch", "astoolspatch"),
    flag("list-gpu-code", "code-ls", Id::ListGpuCode),
    flag("list-gpu-arch", "arch-ls", Id::ListGpuArch),
    flag("display-error-number", "err-no"),
    flag("no-display-error-number", "no-err-no"),
    list("diag-error", "diag-error"),
    list("diag-suppress", "diag-suppress"),
    list("diag-warn", "diag-warn"),
    optionalValue("host-linker-script", "hls"),
    flag("augment-host-linker-script", "aug-hls"),
    flag("relocatable-link", "r"),
    single("brief-diagnostics", "brief-diag"),
    single("jump-table-density", "jtd"),
    flag("relocatable-ptx", "reloc-ptx"),
    single("device-stack-protector", "device-stack-protector"),
    single("compress-mode", "compress-mode"), // One of [default,size,speed,balance,none].
    single("frandom-seed", "frandom-seed"),
    single("sanitize", "sanitize"),
    flag("jobserver", "jobserver"),
    flag("help", "h", Id::Help),
    flag("version", "V", Id::Version),
    list("options-file", "optf", Id::OptionsFile),

    // Undocumented, accepted by nvcc 13.0 (each probed: which spellings nvcc
    // knows, and whether it asks for a value).
    hidden(list("cicc-options", "Xcicc")),
    hidden(list("cudafe-options", "Xcudafe")),
    hidden(list("fatbin-options", "Xfatbin")),
    hidden(list("nvasm-options", "Xnvasm")),
    hidden(list("nvdisasm-options", "Xnvdisasm")),
    hidden(single("all-prefix", "")),
    hidden(single("cpp-prefix", "")),
    hidden(single("cudafe-prefix", "")),
    hidden(single("cicc-prefix", "")),
    hidden(single("ptxas-prefix", "")),
    hidden(single("nvlink-prefix", "")),
    hidden(single("use-cubin", "use-cubin")),
    hidden(single("export-dir", "")),
    hidden(single("extern-mode", "")),
    hidden(single("intern-mode", "")),
    hidden(single("device-compilation", "")),
    hidden(single("nvvm-version", "nvvm-version")),
    hidden(single("cuda-api-version", "cuda-api-version")),
    hidden(single("tool-name", "tool-name")),
    hidden(single("no-libdevice", "no-libdevice")),
    hidden(single("version-ident", "")),
    hidden(single("cl-version", "")),
    hidden(single("", "dQ")),
    hidden(flag("dD", "dD")),
    hidden(flag("tdump", "tdump")),
    hidden(flag("", "no-lineinfo-ia")),
    hidden(flag("no-device-inline", "nodinline")),
    hidden(flag("aggressive-inline", "aggressive-inline")),
    hidden(flag("fassociative-math", "fassociative-math")),
    hidden(flag("legacy-launch-seq", "legacy-launch-seq")),
    hidden(flag("no-shadow-functions", "no-shadow-functions")),
    hidden(flag("nvasm-loopback", "nvasm-loopback")),
    hidden(flag("restrict-in-struct", "restrict-in-struct")),
    hidden(flag("host-relocatable-link", "host-r")),
};

const NvccOption *findByName(StringRef Name, bool Long) {
  if (Name.empty())
    return nullptr;
  for (const NvccOption &O : Table)
    if ((Long ? O.Long : O.Short) == Name)
      return &O;
  return nullptr;
}
} // namespace

llvm::ArrayRef<NvccOption> nvccOptions() { return Table; }

std::optional<NvccOptionMatch> matchNvccOption(StringRef Arg) {
  if (Arg.size() < 2 || Arg[0] != '-')
    return std::nullopt;
  bool Long = Arg.starts_with("--");
  StringRef Body = Arg.drop_front(Long ? 2 : 1);
  size_t Equals = Body.find('=');
  if (const NvccOption *O = findByName(Body.take_front(Equals), Long)) {
    if (Equals == StringRef::npos)
      return NvccOptionMatch{O, std::nullopt};
    return NvccOptionMatch{O, Body.drop_front(Equals + 1)};
  }
  if (Long)
    return std::nullopt;
  for (const NvccOption &O : Table)
    if (O.Joined && Body.size() > O.Short.size() && Body.starts_with(O.Short))
      return NvccOptionMatch{&O, Body.drop_front(O.Short.size())};
  return std::nullopt;
}

bool takesNextArgument(const NvccOptionMatch &Match, const std::string *Next) {
  switch (Match.Option->Value) {
  case NvccValueKind::None:
    return false;
  case NvccValueKind::Optional:
    return !Match.InlineValue && Next && !llvm::StringRef(*Next).starts_with("-");
  case NvccValueKind::Single:
  case NvccValueKind::List:
    return !Match.InlineValue;
  }
  return false;
}

const NvccOption *findNvccOption(StringRef Spelling) {
  if (Spelling.starts_with("--"))
    return findByName(Spelling.drop_front(2), /*Long=*/true);
  if (Spelling.starts_with("-"))
    return findByName(Spelling.drop_front(1), /*Long=*/false);
  return nullptr;
}

} // namespace kopt::driver
