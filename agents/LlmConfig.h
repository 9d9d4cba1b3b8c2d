// Where the llm engine finds its model: provider, endpoint, model, and the API
// key, read from the environment variable the options name (never from a file).
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <functional>
#include <optional>
#include <string>

namespace kopt::agents {

struct LlmConfig {
  std::string Provider; // "openai" | "anthropic"
  std::string BaseUrl;  // Without the API path: "https://api.openai.com/v1".
  std::string Model;
  std::string ApiKey;    // Secret: never printed, logged or stored.
  std::string ApiKeyEnv; // The variable it came from, for messages.
  double TimeoutSeconds = 120;
  int MaxRetries = 3;
  double BackoffSeconds = 1; // First wait before a retry; doubles each time.
  double MaxBackoffSeconds = 60;
};

// An option's resolved value by its table key ("llm_model"); "" when unset.
// The driver passes KoptOptions (flag > environment > .kopt.yaml > default).
using OptionLookup = std::function<std::string(llvm::StringRef Key)>;
using EnvLookup = std::function<std::optional<std::string>(const char *Name)>;

// The llm engine's configuration, or an error that says which option or
// variable to set when the model or key is missing.
llvm::Expected<LlmConfig> llmConfigFrom(const OptionLookup &Option, const EnvLookup &GetEnv);

// The provider's public endpoint, used when llm_base_url is unset.
llvm::StringRef defaultBaseUrl(llvm::StringRef Provider);
// OPENAI_API_KEY or ANTHROPIC_API_KEY.
llvm::StringRef defaultApiKeyEnv(llvm::StringRef Provider);

} // namespace kopt::agents
