// The two HTTP dialects of ChatModel: how a conversation becomes a request and
// how a response becomes a reply. No I/O here, so both are unit-tested offline.
#pragma once

#include "agents/LlmChatModel.h"
#include "agents/LlmHttp.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>

namespace kopt::agents {

class LlmDialect {
public:
  virtual ~LlmDialect();
  // URL, headers (with the key) and JSON body for one chat call.
  virtual HttpRequest request(const LlmConfig &Config, llvm::ArrayRef<ChatMessage> Messages,
                              int MaxTokens) const = 0;
  // The text and token counts of a 2xx response body (cost is added by the caller).
  llvm::Expected<ChatReply> reply(llvm::StringRef Body) const;

protected:
  struct UsageFields {
    const char *Input, *Output; // Token counts in the response's "usage" object.
  };
  virtual UsageFields usageFields() const = 0;
  // Text and truncation from a parsed response; may throw nlohmann's type errors.
  virtual llvm::Expected<ChatReply> replyFrom(const nlohmann::json &Response) const = 0;
};

std::unique_ptr<LlmDialect> openAiDialect();
std::unique_ptr<LlmDialect> anthropicDialect();

// The server's own error message in an error body ({"error": {"message": ...}} in
// both dialects), else the body's start.
std::string serverErrorMessage(llvm::StringRef Body);

} // namespace kopt::agents
