// kcc's own options. Each has one row in the table (KoptOptions.cpp) that gives
// its --kopt- flag, KOPT_ environment variable and .kopt.yaml key, all derived
// from one name. Precedence: flag > environment > .kopt.yaml > default.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

// Text: any non-empty string; Count: a non-negative integer; EnvName: the name of
// an environment variable (upper case), whose rejected values are never echoed
// since a user may paste a secret where its name belongs; PathOrNone: a path, or
// empty for none (to turn off what a .kopt.yaml set); Urls: remote cache URLs
// separated by spaces (or the queue's URL), or empty for none, checked where
// they are used (a URL may hold a password: never echoed here); Devices: GPUs
// by ordinal or UUID, separated by commas, or empty for all (DeviceList.h).
enum class OptionKind {
  Bool,
  Choice,
  Duration,
  Path,
  Size,
  Text,
  Count,
  EnvName,
  PathOrNone,
  Urls,
  Devices
};

struct OptionSpec {
  llvm::StringRef Key; // .kopt.yaml key, e.g. "cache_dir"
  OptionKind Kind;
  llvm::StringRef Default;                 // "" means unset
  llvm::ArrayRef<llvm::StringRef> Choices; // For OptionKind::Choice.
  llvm::StringRef Help;

  std::string flag() const;   // "--kopt-cache-dir"
  std::string envVar() const; // "KOPT_CACHE_DIR"
};

llvm::ArrayRef<OptionSpec> allOptions();
const OptionSpec *findOption(llvm::StringRef Key);

// Where an option's value came from, for `--kopt-verbose` and error messages.
enum class OptionSource { Default, ConfigFile, Environment, CommandLine };
llvm::StringRef toString(OptionSource Source);

struct OptionValue {
  std::string Value;
  OptionSource Source = OptionSource::Default;
  std::string Origin; // "KOPT_MODE", "--kopt-mode", "/src/.kopt.yaml:3:7"
};

// The resolved options of one kcc call.
class KoptOptions {
public:
  KoptOptions(); // Every option at its default.

  const OptionValue &get(llvm::StringRef Key) const;
  bool getBool(llvm::StringRef Key) const;
  // Validates Value for Key and sets it if Source is at least as strong as the
  // current value's source.
  llvm::Error set(llvm::StringRef Key, llvm::StringRef Value, OptionSource Source,
                  std::string Origin);

  std::string mode() const { return get("mode").Value; }
  bool strict() const { return getBool("strict"); }
  bool fastMath() const { return getBool("fast_math"); }
  bool verbose() const { return getBool("verbose"); }
  bool keep() const { return getBool("keep"); }

  // Where each option came from, one line each.
  std::string describe() const;

private:
  std::map<std::string, OptionValue, std::less<>> Values;
};

// Splits kcc's command line: the --kopt- arguments are removed (they never
// reach the real compiler) and returned as Key/Value pairs; an unknown
// --kopt- option is an error with a suggestion.
struct SplitCommandLine {
  std::vector<std::string> CompilerArgs;
  std::vector<std::pair<std::string, std::string>> KoptFlags; // Key, value as written.
};
llvm::Expected<SplitCommandLine> splitKoptFlags(const std::vector<std::string> &Args);

using GetEnvFn = std::function<std::optional<std::string>(const char *)>;

// Applies environment variables, then flags, over Options (which may already
// hold .kopt.yaml values).
llvm::Error applyEnvironmentAndFlags(KoptOptions &Options, const GetEnvFn &GetEnv,
                                     const SplitCommandLine &Split);

// `kcc --kopt-help`: every option with its flag, environment variable,
// .kopt.yaml key, default and meaning.
void printOptionsHelp(llvm::raw_ostream &OS);

// The closest option name to Name within a small edit distance, for "did you mean".
std::optional<std::string> suggestOption(llvm::StringRef Name);

} // namespace kopt::driver
