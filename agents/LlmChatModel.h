// The llm engine's view of a language model: a list of messages in, one reply
// out, with the tokens it cost. Two HTTP dialects sit behind it: OpenAI-compatible
// chat completions and Anthropic messages (LlmConfig::Provider picks one).
#pragma once

#include "agents/LlmConfig.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <memory>
#include <string>

namespace kopt::agents {

struct ChatMessage {
  enum class Role { System, User, Assistant } From;
  std::string Text;
};

struct ChatUsage {
  int64_t InputTokens = 0, OutputTokens = 0;
  double CostUsd = 0; // 0 when the model is not in the price table (LlmPricing.h).

  ChatUsage &operator+=(const ChatUsage &Other);
};

struct ChatReply {
  std::string Text;
  ChatUsage Usage;
  bool Truncated = false;   // The model stopped at the token limit.
  int Attempts = 1;         // HTTP requests it took (retries after 429/5xx).
  double WaitedSeconds = 0; // Time spent waiting between attempts.
};

class ChatModel {
public:
  virtual ~ChatModel();
  virtual llvm::Expected<ChatReply> chat(llvm::ArrayRef<ChatMessage> Messages, int MaxTokens) = 0;
};

// The HTTP client for Config's provider. Errors name the HTTP status and the
// server's own message, never the API key.
llvm::Expected<std::unique_ptr<ChatModel>> createChatModel(const LlmConfig &Config);

} // namespace kopt::agents
