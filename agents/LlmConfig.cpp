#include "agents/LlmConfig.h"

#include "support/Duration.h"

#include <llvm/ADT/StringExtras.h>

namespace kopt::agents {

namespace {
// How a user sets the option Key: the same three spellings as driver/KoptOptions.
std::string howToSet(llvm::StringRef Key) {
  std::string Flag = "--kopt-" + Key.str();
  std::replace(Flag.begin(), Flag.end(), '_', '-');
  return Key.str() + " in .kopt.yaml, KOPT_" + Key.upper() + " or " + Flag + "=...";
}
} // namespace

llvm::StringRef defaultBaseUrl(llvm::StringRef Provider) {
  return Provider == "anthropic" ? "https://api.anthropic.com" : "https://api.openai.com/v1";
}

llvm::StringRef defaultApiKeyEnv(llvm::StringRef Provider) {
  return Provider == "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
}

llvm::Expected<LlmConfig> llmConfigFrom(const OptionLookup &Option, const EnvLookup &GetEnv) {
  LlmConfig Config;
  Config.Provider = Option("llm_provider");
  if (Config.Provider.empty())
    Config.Provider = "openai";
  if (Config.Provider != "openai" && Config.Provider != "anthropic")
    return llvm::createStringError("unknown llm provider '%s'; expected openai or anthropic",
                                   Config.Provider.c_str());

  Config.BaseUrl = Option("llm_base_url");
  if (Config.BaseUrl.empty())
    Config.BaseUrl = defaultBaseUrl(Config.Provider).str();
  while (llvm::StringRef(Config.BaseUrl).ends_with("/"))
    Config.BaseUrl.pop_back();
  if (!llvm::StringRef(Config.BaseUrl).starts_with("http://") &&
      !llvm::StringRef(Config.BaseUrl).starts_with("https://"))
    return llvm::createStringError("llm_base_url '%s' is not an http:// or https:// URL",
                                   Config.BaseUrl.c_str());

  Config.Model = Option("llm_model");
  if (Config.Model.empty())
    return llvm::createStringError("the llm engine needs a model: set " + howToSet("llm_model"));

  Config.ApiKeyEnv = Option("llm_api_key_env");
  if (Config.ApiKeyEnv.empty())
    Config.ApiKeyEnv = defaultApiKeyEnv(Config.Provider).str();
  std::optional<std::string> Key = GetEnv(Config.ApiKeyEnv.c_str());
  if (!Key || llvm::StringRef(*Key).trim().empty())
    return llvm::createStringError("the llm engine needs an API key in the environment variable " +
                                   Config.ApiKeyEnv + ", which is not set (" +
                                   howToSet("llm_api_key_env") + " names another variable)");
  Config.ApiKey = llvm::StringRef(*Key).trim().str();

  if (std::string Timeout = Option("llm_timeout"); !Timeout.empty()) {
    std::optional<double> Seconds = parseDurationSeconds(Timeout);
    if (!Seconds || *Seconds <= 0)
      return llvm::createStringError("llm_timeout '%s' is not a positive duration",
                                     Timeout.c_str());
    Config.TimeoutSeconds = *Seconds;
  }
  if (std::string Retries = Option("llm_retries"); !Retries.empty()) {
    unsigned N = 0;
    if (!llvm::to_integer(Retries, N) || N > 100)
      return llvm::createStringError("llm_retries '%s' is not a number from 0 to 100",
                                     Retries.c_str());
    Config.MaxRetries = int(N);
  }
  return Config;
}

} // namespace kopt::agents
