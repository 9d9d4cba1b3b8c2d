#include "driver/nvcc/NvccCommandLine.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace kopt::driver {

namespace {
using Id = NvccOptionId;

// The phase that stops earliest wins, whatever the order on the command line.
constexpr std::pair<Id, NvccMode> PhasesByPrecedence[] = {
    {Id::GenerateDependencies, NvccMode::GenerateDependencies},
    {Id::GenerateNonsystemDependencies, NvccMode::GenerateDependencies},
    {Id::Preprocess, NvccMode::Preprocess},
    {Id::OptixIr, NvccMode::OptixIr},
    {Id::LtoIr, NvccMode::LtoIr},
    {Id::Ptx, NvccMode::Ptx},
    {Id::Cubin, NvccMode::Cubin},
    {Id::Fatbin, NvccMode::Fatbin},
    {Id::Cuda, NvccMode::Cuda},
    {Id::DeviceC, NvccMode::DeviceCompile},
    {Id::DeviceW, NvccMode::DeviceWholeProgram},
    {Id::Compile, NvccMode::Compile},
    {Id::DeviceLink, NvccMode::DeviceLink},
    {Id::Lib, NvccMode::Lib},
    {Id::Run, NvccMode::Run},
    {Id::Link, NvccMode::Link},
};

std::optional<NvccInputKind> kindByLanguage(llvm::StringRef Language) {
  return llvm::StringSwitch<std::optional<NvccInputKind>>(Language)
      .Case("cu", NvccInputKind::CudaSource)
      .Case("c", NvccInputKind::CSource)
      .Case("c++", NvccInputKind::CxxSource)
      .Default(std::nullopt);
}

bool isPathList(Id I) {
  return I == Id::IncludePath || I == Id::SystemInclude || I == Id::PreInclude;
}

std::vector<std::string> itemsOf(const NvccOptionUse &Use) {
  return splitNvccList(Use.Value, isPathList(Use.Option->Id));
}

// Fills the modeled fields from the options, one at a time.
class Interpreter {
public:
  explicit Interpreter(NvccCommandLine &Result) : CL(Result) {}

  llvm::Error apply(const NvccOptionUse &Use) {
    const std::string &V = Use.Value;
    NvccValue Value{V, Use.ArgIndex};
    switch (Use.Option->Id) {
    case Id::OutputFile:
      CL.Output = Value;
      break;
    case Id::Language:
      if (V == "none")
        CL.Language.reset();
      else
        CL.Language = Value;
      break;
    case Id::IncludePath:
      addItems(CL.IncludeDirs, Use);
      break;
    case Id::SystemInclude:
      addItems(CL.SystemIncludeDirs, Use);
      break;
    case Id::PreInclude:
      addItems(CL.PreIncludes, Use);
      break;
    case Id::DefineMacro:
    case Id::UndefineMacro:
      for (std::string &Item : itemsOf(Use))
        CL.Macros.push_back({Use.Option->Id == Id::DefineMacro, std::move(Item), Use.ArgIndex});
      break;
    case Id::Std:
      CL.Std = Value;
      break;
    case Id::GpuArchitecture:
      CL.GpuArchitectures.push_back(Value);
      break;
    case Id::GpuCode:
      addItems(CL.GpuCodes, Use);
      break;
    case Id::GenerateCode:
      return addGenerateCode(Use);
    case Id::RelocatableDeviceCode:
      if (V != "true" && V != "false")
        return llvm::createStringError("'%s': expected true or false after '%s'", V.c_str(),
                                       CL.Args[Use.ArgIndex].c_str());
      CL.RelocatableDeviceCode = V == "true";
      break;
    case Id::CompilerBindir:
      CL.CompilerBindir = Value;
      break;
    case Id::CompilerOptions:
      CL.CompilerOptions.push_back({V, itemsOf(Use), Use.ArgIndex});
      break;
    case Id::PtxasOptions:
      CL.PtxasOptions.push_back({V, itemsOf(Use), Use.ArgIndex});
      break;
    case Id::LinkerOptions:
      CL.LinkerOptions.push_back({V, itemsOf(Use), Use.ArgIndex});
      break;
    case Id::NvlinkOptions:
      CL.NvlinkOptions.push_back({V, itemsOf(Use), Use.ArgIndex});
      break;
    case Id::NonsystemDependenciesWithCompile:
      CL.NonsystemDependencies = true;
      [[fallthrough]];
    case Id::DependenciesWithCompile:
      CL.DependenciesWithCompile = true;
      break;
    case Id::GenerateNonsystemDependencies:
      CL.NonsystemDependencies = true;
      break;
    case Id::DependencyOutput:
      CL.DependencyOutput = Value;
      break;
    case Id::DependencyTargets:
      CL.DependencyTargets = true;
      break;
    case Id::DependencyTargetName:
      CL.DependencyTargetNames.push_back(Value);
      break;
    case Id::ForwardUnknownOpts:
      CL.ForwardUnknownToHostLinker = true;
      [[fallthrough]];
    case Id::ForwardUnknownToHostCompiler:
      CL.ForwardUnknownToHostCompiler = true;
      break;
    case Id::ForwardUnknownToHostLinker:
      CL.ForwardUnknownToHostLinker = true;
      break;
    case Id::Verbose:
      CL.Verbose = true;
      break;
    case Id::Version:
      CL.Version = true;
      break;
    case Id::Help:
      CL.Help = true;
      break;
    case Id::DryRun:
      CL.DryRun = true;
      break;
    case Id::Keep:
      CL.Keep = true;
      break;
    case Id::KeepDir:
      CL.KeepDir = Value;
      break;
    case Id::DeviceDebug:
      CL.DeviceDebug = true;
      break;
    case Id::GenerateLineInfo:
      CL.LineInfo = true;
      break;
    case Id::UseFastMath:
      CL.UseFastMath = true;
      break;
    case Id::RelaxedConstexpr:
      CL.RelaxedConstexpr = true;
      break;
    case Id::ExtendedLambda:
      CL.ExtendedLambda = true;
      break;
    case Id::Optimize:
      CL.Optimize = Value;
      break;
    case Id::MaxRegCount:
      CL.MaxRegCount = Value;
      break;
    default: // Phases are read from Options at the end; the rest is not modeled.
      break;
    }
    return llvm::Error::success();
  }

  void finish() {
    for (const auto &[Phase, Mode] : PhasesByPrecedence)
      if (CL.has(Phase)) {
        CL.Mode = Mode;
        break;
      }
    std::optional<NvccInputKind> Forced;
    if (CL.Language)
      Forced = kindByLanguage(CL.Language->Value);
    for (NvccInputFile &Input : CL.Inputs)
      Input.Kind = Forced ? *Forced : nvccInputKindByExtension(Input.Path);
  }

private:
  void addItems(std::vector<NvccValue> &To, const NvccOptionUse &Use) {
    for (std::string &Item : itemsOf(Use))
      To.push_back({std::move(Item), Use.ArgIndex});
  }

  llvm::Error addGenerateCode(const NvccOptionUse &Use) {
    llvm::Expected<NvccGenerateCode> Spec = parseNvccGenerateCode(Use.Value);
    if (!Spec)
      return llvm::createStringError("malformed '%s %s': %s", CL.Args[Use.ArgIndex].c_str(),
                                     Use.Value.c_str(), llvm::toString(Spec.takeError()).c_str());
    Spec->ArgIndex = Use.ArgIndex;
    CL.GenerateCodes.push_back(std::move(*Spec));
    return llvm::Error::success();
  }

  NvccCommandLine &CL;
};

bool isRealArchitecture(llvm::StringRef Arch) { return Arch.starts_with("sm_"); }
} // namespace

NvccInputKind nvccInputKindByExtension(llvm::StringRef Path) {
  return llvm::StringSwitch<NvccInputKind>(llvm::sys::path::extension(Path))
      .Cases(".cu", ".cup", NvccInputKind::CudaSource)
      .Cases(".c", ".i", NvccInputKind::CSource)
      .Cases(".cpp", ".cc", ".cxx", ".C", ".ii", NvccInputKind::CxxSource)
      .Cases(".o", ".obj", NvccInputKind::Object)
      .Cases(".a", ".lib", NvccInputKind::Archive)
      .Case(".so", NvccInputKind::SharedLibrary)
      .Case(".ptx", NvccInputKind::Ptx)
      .Case(".cubin", NvccInputKind::Cubin)
      .Case(".fatbin", NvccInputKind::Fatbin)
      .Default(NvccInputKind::Other);
}

llvm::Expected<NvccCommandLine> parseNvccCommandLine(const std::vector<std::string> &Args,
                                                     const NvccParseEnvironment &Env) {
  llvm::Expected<std::vector<std::string>> Expanded = expandNvccArguments(Args, Env);
  if (!Expanded)
    return Expanded.takeError();
  NvccCommandLine CL;
  CL.Args = std::move(*Expanded);
  Interpreter Interp(CL);

  for (size_t I = 0; I < CL.Args.size(); ++I) {
    llvm::StringRef Arg = CL.Args[I];
    std::optional<NvccOptionMatch> Match = matchNvccOption(Arg);
    if (!Match) {
      // "-" alone is standard input, an input like any file.
      if (Arg.size() > 1 && Arg.front() == '-')
        CL.Unknown.push_back({Arg.str(), I});
      else
        CL.Inputs.push_back({Arg.str(), NvccInputKind::Other, I});
      continue;
    }
    NvccOptionUse Use{Match->Option, I, 1, ""};
    const std::string *Next = I + 1 < CL.Args.size() ? &CL.Args[I + 1] : nullptr;
    if (!Match->Option->takesValue() && Match->InlineValue)
      return llvm::createStringError("no argument expected after '%s'",
                                     Arg.take_until([](char C) { return C == '='; }).str().c_str());
    if (Match->InlineValue) {
      Use.Value = Match->InlineValue->str();
    } else if (takesNextArgument(*Match, Next)) {
      if (!Next)
        return llvm::createStringError("argument expected after '%s'", Arg.str().c_str());
      Use.Value = *Next;
      Use.ArgCount = 2;
      ++I;
    }
    CL.Options.push_back(std::move(Use));
    if (llvm::Error E = Interp.apply(CL.Options.back()))
      return E;
  }
  Interp.finish();
  return CL;
}

std::vector<const NvccInputFile *> NvccCommandLine::cudaSources() const {
  std::vector<const NvccInputFile *> Sources;
  for (const NvccInputFile &Input : Inputs)
    if (Input.Kind == NvccInputKind::CudaSource)
      Sources.push_back(&Input);
  return Sources;
}

std::vector<std::string> NvccCommandLine::preprocessorFlags() const {
  std::vector<std::string> Flags;
  auto AddEach = [&](const NvccOptionUse &Use, const std::string &Flag, bool Separate) {
    for (std::string &Item : itemsOf(Use)) {
      if (Separate)
        Flags.push_back(Flag);
      Flags.push_back(Separate ? std::move(Item) : Flag + Item);
    }
  };
  for (const NvccOptionUse &Use : Options) {
    switch (Use.Option->Id) {
    case Id::IncludePath:
      AddEach(Use, "-I", /*Separate=*/false);
      break;
    case Id::SystemInclude:
      AddEach(Use, "-isystem", /*Separate=*/true);
      break;
    case Id::DefineMacro:
      AddEach(Use, "-D", /*Separate=*/false);
      break;
    case Id::UndefineMacro:
      AddEach(Use, "-U", /*Separate=*/false);
      break;
    case Id::PreInclude:
      AddEach(Use, "-include", /*Separate=*/true);
      break;
    case Id::Std:
      Flags.push_back("-std=" + Use.Value);
      break;
    default:
      break;
    }
  }
  return Flags;
}

std::vector<std::string> NvccCommandLine::targetArchitectures() const {
  std::vector<std::string> Archs;
  auto Add = [&](const std::string &Arch) {
    if (isRealArchitecture(Arch) && std::find(Archs.begin(), Archs.end(), Arch) == Archs.end())
      Archs.push_back(Arch);
  };
  // -arch=sm_XX alone means -arch=compute_XX -code=sm_XX,compute_XX; with
  // -code, the codes are what gets built.
  if (!GpuArchitectures.empty() && GpuCodes.empty())
    Add(GpuArchitectures.back().Value);
  for (const NvccValue &Code : GpuCodes)
    Add(Code.Value);
  for (const NvccGenerateCode &Spec : GenerateCodes)
    for (const std::string &Code : Spec.Codes)
      Add(Code);
  return Archs;
}

bool NvccCommandLine::compilesDeviceCode() const {
  if (Help || Version || has(Id::ListGpuCode) || has(Id::ListGpuArch))
    return false;
  if (Mode == NvccMode::Preprocess || Mode == NvccMode::GenerateDependencies)
    return false;
  return !cudaSources().empty();
}

bool NvccCommandLine::relocatableDeviceCode() const {
  return has(Id::DeviceC) || RelocatableDeviceCode.value_or(false);
}

bool NvccCommandLine::has(NvccOptionId Wanted) const {
  return std::any_of(Options.begin(), Options.end(),
                     [&](const NvccOptionUse &Use) { return Use.Option->Id == Wanted; });
}

} // namespace kopt::driver
