#include "driver/kcc/FrontEndStage.h"

#include "support/Exec.h"
#include "support/InstallLayout.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace kopt::driver {

namespace {
// What rewrite-tu's last line says when it fails (exit 2).
constexpr llvm::StringLiteral FailurePrefix = "kopt rewrite-tu: error: ";
// The options kopt's side reads; the rest (keep) are kcc's own.
constexpr llvm::StringLiteral Passed[] = {"mode",          "engine",           "budget",
                                          "build_budget",  "cache_dir",        "cache_max_size",
                                          "project_cache", "llm_provider",     "llm_base_url",
                                          "llm_model",     "llm_api_key_env",  "llm_timeout",
                                          "llm_retries",   "llm_token_budget", "strict",
                                          "verbose",       "fast_math",        "report"};
} // namespace

std::string koptToolPath(const GetEnvFn &GetEnv) {
  if (std::optional<std::string> Explicit = GetEnv("KOPT_TOOL"))
    return *Explicit;
  llvm::SmallString<256> Path(InstallLayout::forRunningBinary().binDir());
  llvm::sys::path::append(Path, "kopt");
  return std::string(Path);
}

std::vector<std::pair<std::string, std::string>> frontEndOptions(const KoptOptions &Options) {
  std::vector<std::pair<std::string, std::string>> Values;
  for (llvm::StringRef Key : Passed)
    if (const OptionValue &V = Options.get(Key); !V.Value.empty())
      Values.emplace_back(Key.str(), V.Value);
  return Values;
}

void passSecretOptions(const KoptOptions &Options) {
  for (llvm::StringRef Key : {"remote_cache", "queue"})
    ::setenv(findOption(Key)->envVar().c_str(), Options.get(Key).Value.c_str(), /*overwrite=*/1);
}

std::vector<std::string> rewriteTuCommand(const std::string &Kopt, const KoptOptions &Options,
                                          llvm::StringRef Source, llvm::StringRef Output,
                                          const std::vector<std::string> &CompileFlags,
                                          llvm::StringRef ManifestKey) {
  std::vector<std::string> Argv = {Kopt, "rewrite-tu", Source.str(), "-o", Output.str()};
  if (!ManifestKey.empty())
    Argv.insert(Argv.end(), {"--manifest", ManifestKey.str()});
  // A default stays unsaid, so that the front end, too, tells a value the user
  // chose from one nobody set (the build budget is shared only where set).
  for (const auto &[Key, Value] : frontEndOptions(Options))
    if (Options.get(Key).Source != OptionSource::Default)
      Argv.push_back(findOption(Key)->flag() + "=" + Value);
  Argv.push_back("--");
  Argv.insert(Argv.end(), CompileFlags.begin(), CompileFlags.end());
  return Argv;
}

FrontEndResult runFrontEnd(const std::string &Kopt, const std::vector<std::string> &Argv) {
  if (!llvm::sys::fs::can_execute(Kopt))
    return {FrontEndOutcome::Unavailable, "kopt's front end is not at " + Kopt};
  std::string Failure, LastLine;
  bool Diagnosed = false;
  auto Filter = [&](llvm::StringRef Line) -> std::optional<std::string> {
    if (!Line.starts_with(FailurePrefix)) {
      Diagnosed = Diagnosed || Line.contains(": error: ");
      if (!Line.trim().empty())
        LastLine = Line.trim().str();
      return Line.str();
    }
    Failure = Line.drop_front(FailurePrefix.size()).str();
    return std::nullopt; // kcc says it once, as a warning.
  };
  llvm::Expected<int> Status = runAndWaitFilteringStderr(Kopt, Argv, Filter);
  if (!Status)
    return {FrontEndOutcome::Unavailable,
            "cannot run " + Kopt + ": " + llvm::toString(Status.takeError())};
  if (*Status == 0)
    return {FrontEndOutcome::Rewritten, {}};
  if (*Status == 1 && Diagnosed)
    return {FrontEndOutcome::UserError, {}};
  if (*Status == 3)
    return {FrontEndOutcome::NoPragma, {}};
  if (!Failure.empty())
    return {FrontEndOutcome::Unavailable, Failure};
  return {FrontEndOutcome::Unavailable,
          Kopt + " rewrite-tu failed with exit status " + std::to_string(*Status) +
              (LastLine.empty() ? " and no message" : " after: " + LastLine)};
}

} // namespace kopt::driver
