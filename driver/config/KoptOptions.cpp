#include "driver/config/KoptOptions.h"

#include "driver/config/DeviceList.h"

#include "support/Duration.h"
#include "support/Spelling.h"
#include "support/UrlPassword.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Regex.h>

#include <algorithm>
#include <cstring>

namespace kopt::driver {

namespace {
constexpr llvm::StringRef Modes[] = {"off", "cache-only", "optimize", "queue"};
constexpr llvm::StringRef Engines[] = {"skills", "llm", "auto"};
constexpr llvm::StringRef LlmProviders[] = {"openai", "anthropic"};

const OptionSpec Table[] = {
    {"mode", OptionKind::Choice, "optimize", Modes,
     "off: plain nvcc; cache-only: use cached variants, never optimize; optimize: also "
     "optimize on a cache miss when a GPU is present; queue: as cache-only, and each miss "
     "becomes a job on the work queue (queue) for `kopt worker` on a GPU host"},
    {"engine", OptionKind::Choice, "skills", Engines,
     "skills: mechanical verified transforms (no network); llm: a language model over HTTP; "
     "auto: llm where it is configured, else skills"},
    {"budget", OptionKind::Duration, "120s", {}, "wall time to optimize one kernel (ms, s, m, h)"},
    {"build_budget",
     OptionKind::Duration,
     "30m",
     {},
     "wall time all of one build's compiles may spend optimizing together (one `make` or "
     "`ninja` run; $KOPT_BUILD_ID names a build explicitly)"},
    {"cache_dir",
     OptionKind::Path,
     "",
     {},
     "the result cache (default: $XDG_CACHE_HOME/kopt or ~/.cache/kopt)"},
    {"cache_max_size",
     OptionKind::Size,
     "1G",
     {},
     "the result cache's size limit (K, M, G, T: powers of 1024; 0: none)"},
    {"project_cache",
     OptionKind::PathOrNone,
     "",
     {},
     "a cache directory in the source tree, read before the result cache, written only by "
     "`kopt cache export` (empty: none)"},
    {"remote_cache",
     OptionKind::Urls,
     "",
     {},
     "remote caches read after the local ones and written by stores, separated by spaces: "
     "redis://[user:password@]host[:port][/db] or http(s)://host/path, each with "
     "|read-only, |connect-timeout=MS (100), |operation-timeout=MS (1000); a password "
     "${NAME} is read from the environment variable NAME (empty: none)"},
    {"fast_math",
     OptionKind::Bool,
     "false",
     {},
     "allow variants that change results beyond reordering: CUDA's approximate math "
     "(__expf, __fdividef, rsqrtf), as -use_fast_math does; the pragma's `fastmath` allows "
     "it for one kernel"},
    {"queue",
     OptionKind::Urls,
     "",
     {},
     "the work queue of mode queue and of `kopt worker`: redis://[user:password@]host[:port]"
     "/NAME (NAME: default kopt), with |connect-timeout=MS, |operation-timeout=MS; a password "
     "${NAME} is read from the environment variable NAME; without remote_cache, its server is "
     "also the remote cache (empty: none)"},
    {"devices",
     OptionKind::Devices,
     "",
     {},
     "the GPUs kopt may optimize on: ordinals among those the process sees (after "
     "CUDA_VISIBLE_DEVICES) or GPU UUIDs, separated by commas; a kernel takes any of them that "
     "is free, and waits only while all are busy (empty: every GPU)"},
    {"report",
     OptionKind::PathOrNone,
     "",
     {},
     "the build log each compile appends its kernels to (cache hits, misses with reasons, "
     "results), from which `kopt report --build-log FILE` writes the page (empty: none)"},
    {"strict", OptionKind::Bool, "false", {}, "fail the compile when optimizing fails"},
    {"verbose", OptionKind::Bool, "false", {}, "say what kcc does and why"},
    {"keep", OptionKind::Bool, "false", {}, "keep kcc's temporary files (the rewritten source)"},
    {"direct",
     OptionKind::Bool,
     "true",
     {},
     "direct mode: reuse a source's recorded rewrite, without kopt's parse, while nothing it "
     "read has changed"},
    // The llm engine. The API key itself is never an option: it is read from the
    // environment variable that llm_api_key_env names, so it never sits in a file.
    {"llm_provider", OptionKind::Choice, "openai", LlmProviders,
     "the llm engine's API: openai (chat completions, also OpenAI-compatible servers) or "
     "anthropic (messages)"},
    {"llm_base_url",
     OptionKind::Text,
     "",
     {},
     "the llm engine's endpoint (default: the provider's public API)"},
    {"llm_model", OptionKind::Text, "", {}, "the model the llm engine asks"},
    {"llm_api_key_env",
     OptionKind::EnvName,
     "",
     {},
     "the NAME of the environment variable holding the API key (default: OPENAI_API_KEY "
     "or ANTHROPIC_API_KEY by provider)"},
    {"llm_timeout", OptionKind::Duration, "120s", {}, "time limit of one llm request"},
    {"llm_retries",
     OptionKind::Count,
     "3",
     {},
     "retries of an llm request that failed with 429 or 5xx (with exponential backoff)"},
    {"llm_token_budget",
     OptionKind::Count,
     "200000",
     {},
     "tokens (input and output) the llm engine may spend on one kernel; the pragma's "
     "budget(tokens = N) overrides it"},
};

std::optional<std::string> normalizeBool(llvm::StringRef Value) {
  std::string Lower = Value.lower();
  if (Lower == "1" || Lower == "true" || Lower == "yes" || Lower == "on")
    return "true";
  if (Lower == "0" || Lower == "false" || Lower == "no" || Lower == "off")
    return "false";
  return std::nullopt;
}

llvm::Expected<std::string> validate(const OptionSpec &Spec, llvm::StringRef Value) {
  auto Bad = [&](const std::string &Expected) {
    return llvm::createStringError("invalid value '%s' for %s; expected %s", Value.str().c_str(),
                                   Spec.Key.str().c_str(), Expected.c_str());
  };
  switch (Spec.Kind) {
  case OptionKind::Bool:
    if (std::optional<std::string> B = normalizeBool(Value))
      return *B;
    return Bad("true or false");
  case OptionKind::Choice:
    for (llvm::StringRef Choice : Spec.Choices)
      if (Value == Choice)
        return Value.str();
    return Bad("one of " + llvm::join(Spec.Choices, ", "));
  case OptionKind::Duration:
    if (parseDurationSeconds(Value))
      return Value.str();
    return Bad("a duration such as 90s, 2m or 500ms");
  case OptionKind::Size:
    if (llvm::Regex("^[0-9]+[KMGT]?$").match(Value))
      return Value.str();
    return Bad("a size such as 500M or 2G");
  case OptionKind::Text:
    if (!Value.empty())
      return Value.str();
    return Bad("a value");
  case OptionKind::Count:
    if (llvm::Regex("^[0-9]{1,9}$").match(Value))
      return Value.str();
    return Bad("a whole number");
  case OptionKind::EnvName:
    if (llvm::Regex("^[A-Z_][A-Z0-9_]*$").match(Value))
      return Value.str();
    return llvm::createStringError(
        "invalid value for %s (not shown); expected the name of an environment variable "
        "such as OPENAI_API_KEY, not the key itself",
        Spec.Key.str().c_str());
  case OptionKind::Path:
    if (!Value.empty())
      return Value.str();
    return Bad("a path");
  case OptionKind::PathOrNone:
  case OptionKind::Urls:
    return Value.str();
  case OptionKind::Devices:
    if (llvm::Expected<std::vector<std::string>> Items = parseDeviceList(Value))
      return llvm::join(*Items, ",");
    else
      return llvm::createStringError("invalid value for %s: %s", Spec.Key.str().c_str(),
                                     llvm::toString(Items.takeError()).c_str());
  }
  llvm_unreachable("all option kinds handled");
}
} // namespace

void printOptionsHelp(llvm::raw_ostream &OS) {
  OS << "usage: kcc [--kopt-OPTION[=VALUE]]... NVCC-ARGUMENTS\n\n"
     << "kcc compiles as nvcc does and ships verified variants of kernels marked\n"
     << "#pragma kopt optimize. Its own options (flag > environment > .kopt.yaml >\n"
     << "default); every other argument goes to nvcc (kcc --help prints nvcc's help):\n\n";
  for (const OptionSpec &O : Table) {
    std::string Value = "=";
    if (O.Kind == OptionKind::Bool)
      Value = "[=true|false]";
    else if (O.Choices.empty())
      Value += "VALUE";
    else
      Value += llvm::join(O.Choices, "|");
    OS << "  " << O.flag() << Value << "\n";
    // The meaning wrapped at 80 columns under the flag, then where else it is set.
    size_t Column = 0;
    for (llvm::StringRef Rest = O.Help; !Rest.empty();) {
      auto [Word, Tail] = Rest.split(' ');
      Rest = Tail;
      if (Column > 0 && Column + 1 + Word.size() > 80) {
        OS << "\n";
        Column = 0;
      }
      OS << (Column == 0 ? "      " : " ") << Word;
      Column += (Column == 0 ? 6 : 1) + Word.size();
    }
    OS << "\n      (" << O.envVar() << ", .kopt.yaml " << O.Key << ":, default "
       << (O.Default.empty() ? llvm::StringRef("unset") : O.Default) << ")\n";
  }
}

std::string OptionSpec::flag() const {
  std::string Name = Key.str();
  std::replace(Name.begin(), Name.end(), '_', '-');
  return "--kopt-" + Name;
}

std::string OptionSpec::envVar() const { return "KOPT_" + Key.upper(); }

llvm::ArrayRef<OptionSpec> allOptions() { return Table; }

const OptionSpec *findOption(llvm::StringRef Key) {
  for (const OptionSpec &S : Table)
    if (S.Key == Key)
      return &S;
  return nullptr;
}

llvm::StringRef toString(OptionSource Source) {
  switch (Source) {
  case OptionSource::Default:
    return "default";
  case OptionSource::ConfigFile:
    return "config file";
  case OptionSource::Environment:
    return "environment";
  case OptionSource::CommandLine:
    return "command line";
  }
  llvm_unreachable("all sources handled");
}

KoptOptions::KoptOptions() {
  for (const OptionSpec &S : Table)
    Values[S.Key.str()] = {S.Default.str(), OptionSource::Default, "default"};
}

const OptionValue &KoptOptions::get(llvm::StringRef Key) const {
  auto It = Values.find(Key);
  assert(It != Values.end() && "option not in the table");
  return It->second;
}

bool KoptOptions::getBool(llvm::StringRef Key) const { return get(Key).Value == "true"; }

llvm::Error KoptOptions::set(llvm::StringRef Key, llvm::StringRef Value, OptionSource Source,
                             std::string Origin) {
  const OptionSpec *Spec = findOption(Key);
  if (!Spec)
    return llvm::createStringError("unknown option '%s'", Key.str().c_str());
  llvm::Expected<std::string> Valid = validate(*Spec, Value);
  if (!Valid)
    return Valid.takeError();
  OptionValue &Current = Values[Key.str()];
  if (Source >= Current.Source)
    Current = {*Valid, Source, std::move(Origin)};
  return llvm::Error::success();
}

std::string KoptOptions::describe() const {
  std::string Out;
  for (const OptionSpec &S : Table) {
    const OptionValue &V = get(S.Key);
    std::string Shown = S.Kind == OptionKind::Urls ? maskUrlPasswords(V.Value) : V.Value;
    Out += S.Key.str() + "=" + (Shown.empty() ? "(unset)" : Shown) + " (" +
           toString(V.Source).str() + (V.Source == OptionSource::Default ? "" : ": " + V.Origin) +
           ")\n";
  }
  return Out;
}

std::optional<std::string> suggestOption(llvm::StringRef Name) {
  std::vector<std::string> Spellings;
  for (const OptionSpec &S : Table)
    Spellings.insert(Spellings.end(), {S.Key.str(), S.flag(), S.envVar()});
  return closestSpelling(Name, std::vector<llvm::StringRef>(Spellings.begin(), Spellings.end()),
                         /*MaxDistance=*/2);
}

llvm::Expected<SplitCommandLine> splitKoptFlags(const std::vector<std::string> &Args) {
  SplitCommandLine Split;
  for (const std::string &Arg : Args) {
    llvm::StringRef A(Arg);
    if (!A.starts_with("--kopt-")) {
      Split.CompilerArgs.push_back(Arg);
      continue;
    }
    auto [Name, Value] = A.split('=');
    bool HasValue = A.contains('=');
    std::string Key = Name.drop_front(strlen("--kopt-")).str();
    std::replace(Key.begin(), Key.end(), '-', '_');
    const OptionSpec *Spec = findOption(Key);
    if (!Spec) {
      std::string Message = "unknown option '" + Name.str() + "'";
      Message += didYouMean(suggestOption(Name));
      return llvm::createStringError(Message);
    }
    if (!HasValue && Spec->Kind != OptionKind::Bool)
      return llvm::createStringError("option '%s' needs a value: %s=VALUE", Name.str().c_str(),
                                     Name.str().c_str());
    Split.KoptFlags.emplace_back(Key, HasValue ? Value.str() : "true");
  }
  return Split;
}

llvm::Error applyEnvironmentAndFlags(KoptOptions &Options, const GetEnvFn &GetEnv,
                                     const SplitCommandLine &Split) {
  for (const OptionSpec &S : allOptions()) {
    std::string Var = S.envVar();
    if (std::optional<std::string> Value = GetEnv(Var.c_str()))
      if (llvm::Error E = Options.set(S.Key, *Value, OptionSource::Environment, Var))
        return llvm::createStringError(Var + ": " + llvm::toString(std::move(E)));
  }
  for (const auto &[Key, Value] : Split.KoptFlags) {
    std::string Flag = findOption(Key)->flag();
    if (llvm::Error E = Options.set(Key, Value, OptionSource::CommandLine, Flag))
      return llvm::createStringError(Flag + ": " + llvm::toString(std::move(E)));
  }
  return llvm::Error::success();
}

} // namespace kopt::driver
