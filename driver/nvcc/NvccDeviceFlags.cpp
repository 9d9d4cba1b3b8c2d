#include "driver/nvcc/NvccDeviceFlags.h"

#include <llvm/Support/Regex.h>

#include <algorithm>
#include <map>

namespace kopt::driver {

namespace {

// Options whose value (the last one given) or presence is kept as given.
constexpr llvm::StringLiteral LastValue[] = {"maxrregcount",           "dopt",
                                             "Ofast-compile",          "jump-table-density",
                                             "device-stack-protector", "sanitize"};
constexpr llvm::StringLiteral Flags[] = {"extra-device-vectorization",
                                         "restrict",
                                         "dlink-time-opt",
                                         "lto",
                                         "gen-opt-lto",
                                         "device-debug"};

// The floating-point switches and their values without and with --use_fast_math.
struct MathSwitch {
  llvm::StringLiteral Name, Default, FastMath;
};
constexpr MathSwitch MathSwitches[] = {{"ftz", "false", "true"},
                                       {"prec-div", "true", "false"},
                                       {"prec-sqrt", "true", "false"},
                                       {"fmad", "true", "true"}};

// ptxas options that report or warn and leave the code alone.
bool changesNoCode(llvm::StringRef PtxasOption) {
  llvm::StringRef O = PtxasOption;
  O.consume_front("-");
  O.consume_front("-");
  return O == "v" || O == "verbose" || O.starts_with("warn") || O.starts_with("Werror") ||
         O.starts_with("suppress") || O.starts_with("warning-as-error");
}
} // namespace

std::vector<std::string> deviceCodegenFlags(const NvccCommandLine &Cmd, UnitLanguageUse Use) {
  std::map<std::string, std::string> Last; // Long name -> last value ("" for a flag).
  for (const NvccOptionUse &U : Cmd.Options)
    Last[U.Option->Long.str()] = U.Value;
  std::vector<std::string> Out;
  for (llvm::StringRef Name : LastValue)
    if (auto It = Last.find(Name.str()); It != Last.end())
      Out.push_back("--" + Name.str() + "=" + It->second);
  for (llvm::StringRef Name : Flags)
    if (Last.count(Name.str()))
      Out.push_back("--" + Name.str());
  if (Cmd.UseFastMath)
    Out.push_back("--use_fast_math");
  for (const MathSwitch &S : MathSwitches)
    if (auto It = Last.find(S.Name.str()); It != Last.end()) {
      llvm::StringRef Implied = Cmd.UseFastMath ? S.FastMath : S.Default;
      if (llvm::StringRef(It->second).lower() != Implied)
        Out.push_back("--" + S.Name.str() + "=" + llvm::StringRef(It->second).lower());
    }
  if (Cmd.relocatableDeviceCode())
    Out.push_back("--relocatable-device-code=true");
  if (Use.KeepsIncludes) // nvcc 13.0's default standard is C++17.
    Out.push_back("--std=" + (Cmd.Std ? Cmd.Std->Value : std::string("c++17")));
  if (Use.HasExtendedLambda && Cmd.ExtendedLambda)
    Out.push_back("--extended-lambda");
  std::sort(Out.begin(), Out.end());
  for (const NvccListValue &L : Cmd.PtxasOptions)
    for (const std::string &Item : L.Items)
      if (!changesNoCode(Item))
        Out.push_back("-Xptxas=" + Item);
  return Out;
}

bool hasExtendedLambda(llvm::StringRef UnitText) {
  // "] (...) __device__", "] __host__ __device__", "] mutable __device__".
  static const llvm::Regex Lambda(
      R"(\][[:space:]]*(\([^()]*\)[[:space:]]*)?(mutable[[:space:]]*)?__(device|host)__)");
  return Lambda.match(UnitText);
}

llvm::Expected<NvccCommandLine> parseExpandedNvccFlags(const std::vector<std::string> &Flags) {
  NvccParseEnvironment Env = NvccParseEnvironment::current();
  Env.PrependFlags.reset();
  Env.AppendFlags.reset();
  return parseNvccCommandLine(Flags, Env);
}

} // namespace kopt::driver
