#include "agents/LlmDialect.h"

#include <nlohmann/json.hpp>

namespace kopt::agents {

using Json = nlohmann::json;

LlmDialect::~LlmDialect() = default;

namespace {
const char *roleName(ChatMessage::Role Role) {
  switch (Role) {
  case ChatMessage::Role::System:
    return "system";
  case ChatMessage::Role::User:
    return "user";
  case ChatMessage::Role::Assistant:
    return "assistant";
  }
  llvm_unreachable("all roles handled");
}

llvm::Expected<Json> parseBody(llvm::StringRef Body) {
  Json J = Json::parse(Body.begin(), Body.end(), nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded() || !J.is_object())
    return llvm::createStringError("the server's response is not a JSON object: '%s'",
                                   Body.take_front(200).str().c_str());
  return J;
}

int64_t tokenCount(const Json &Usage, const char *Field) {
  auto It = Usage.find(Field);
  return It != Usage.end() && It->is_number_integer() ? It->get<int64_t>() : 0;
}

class OpenAiDialect : public LlmDialect {
public:
  HttpRequest request(const LlmConfig &Config, llvm::ArrayRef<ChatMessage> Messages,
                      int MaxTokens) const override {
    Json Body = {{"model", Config.Model}, {"max_tokens", MaxTokens}, {"messages", Json::array()}};
    for (const ChatMessage &M : Messages)
      Body["messages"].push_back({{"role", roleName(M.From)}, {"content", M.Text}});
    return {Config.BaseUrl + "/chat/completions",
            {"Content-Type: application/json", "Authorization: Bearer " + Config.ApiKey},
            Body.dump(),
            Config.TimeoutSeconds};
  }

  llvm::Expected<ChatReply> reply(llvm::StringRef Body) const override {
    llvm::Expected<Json> J = parseBody(Body);
    if (!J)
      return J.takeError();
    const Json &Choices = (*J)["choices"];
    if (!Choices.is_array() || Choices.empty() || !Choices[0]["message"]["content"].is_string())
      return llvm::createStringError("the chat completion has no choices[0].message.content");
    ChatReply Reply;
    Reply.Text = Choices[0]["message"]["content"].get<std::string>();
    Reply.Truncated = Choices[0].value("finish_reason", Json()) == "length";
    if (J->contains("usage") && (*J)["usage"].is_object()) {
      Reply.Usage.InputTokens = tokenCount((*J)["usage"], "prompt_tokens");
      Reply.Usage.OutputTokens = tokenCount((*J)["usage"], "completion_tokens");
    }
    return Reply;
  }
};

class AnthropicDialect : public LlmDialect {
public:
  HttpRequest request(const LlmConfig &Config, llvm::ArrayRef<ChatMessage> Messages,
                      int MaxTokens) const override {
    // Anthropic takes the system prompt beside the messages, not among them.
    Json Body = {{"model", Config.Model}, {"max_tokens", MaxTokens}, {"messages", Json::array()}};
    std::string System;
    for (const ChatMessage &M : Messages) {
      if (M.From == ChatMessage::Role::System) {
        System += (System.empty() ? "" : "\n\n") + M.Text;
        continue;
      }
      Body["messages"].push_back({{"role", roleName(M.From)}, {"content", M.Text}});
    }
    if (!System.empty())
      Body["system"] = System;
    return {Config.BaseUrl + "/v1/messages",
            {"Content-Type: application/json", "x-api-key: " + Config.ApiKey,
             "anthropic-version: 2023-06-01"},
            Body.dump(),
            Config.TimeoutSeconds};
  }

  llvm::Expected<ChatReply> reply(llvm::StringRef Body) const override {
    llvm::Expected<Json> J = parseBody(Body);
    if (!J)
      return J.takeError();
    const Json &Content = (*J)["content"];
    if (!Content.is_array())
      return llvm::createStringError("the message has no content array");
    ChatReply Reply;
    for (const Json &Block : Content)
      if (Block.value("type", "") == "text" && Block["text"].is_string())
        Reply.Text += Block["text"].get<std::string>();
    Reply.Truncated = J->value("stop_reason", Json()) == "max_tokens";
    if (J->contains("usage") && (*J)["usage"].is_object()) {
      Reply.Usage.InputTokens = tokenCount((*J)["usage"], "input_tokens");
      Reply.Usage.OutputTokens = tokenCount((*J)["usage"], "output_tokens");
    }
    return Reply;
  }
};
} // namespace

std::unique_ptr<LlmDialect> openAiDialect() { return std::make_unique<OpenAiDialect>(); }
std::unique_ptr<LlmDialect> anthropicDialect() { return std::make_unique<AnthropicDialect>(); }

std::string serverErrorMessage(llvm::StringRef Body) {
  Json J = Json::parse(Body.begin(), Body.end(), nullptr, /*allow_exceptions=*/false);
  if (!J.is_discarded() && J.is_object() && J.contains("error")) {
    const Json &E = J["error"];
    if (E.is_object() && E.contains("message") && E["message"].is_string())
      return E["message"].get<std::string>();
    if (E.is_string())
      return E.get<std::string>();
  }
  std::string Start = Body.trim().take_front(300).str();
  return Start.empty() ? "(empty body)" : Start;
}

} // namespace kopt::agents
