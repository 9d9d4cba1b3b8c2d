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

int64_t tokenCount(const Json &Response, const char *Field) {
  auto Usage = Response.find("usage");
  if (Usage == Response.end() || !Usage->is_object())
    return 0;
  auto It = Usage->find(Field);
  return It != Usage->end() && It->is_number_integer() ? It->get<int64_t>() : 0;
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

  UsageFields usageFields() const override { return {"prompt_tokens", "completion_tokens"}; }

  llvm::Expected<ChatReply> replyFrom(const Json &J) const override {
    const Json &Choices = J.at("choices");
    if (!Choices.is_array() || Choices.empty() ||
        !Choices[0].at("message").at("content").is_string())
      return llvm::createStringError("the chat completion has no choices[0].message.content");
    ChatReply Reply;
    Reply.Text = Choices[0]["message"]["content"].get<std::string>();
    Reply.Truncated = Choices[0].value("finish_reason", Json()) == "length";
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

  UsageFields usageFields() const override { return {"input_tokens", "output_tokens"}; }

  llvm::Expected<ChatReply> replyFrom(const Json &J) const override {
    const Json &Content = J.at("content");
    if (!Content.is_array())
      return llvm::createStringError("the message has no content array");
    ChatReply Reply;
    for (const Json &Block : Content)
      if (Block.value("type", "") == "text" && Block.at("text").is_string())
        Reply.Text += Block["text"].get<std::string>();
    Reply.Truncated = J.value("stop_reason", Json()) == "max_tokens";
    return Reply;
  }
};
} // namespace

llvm::Expected<ChatReply> LlmDialect::reply(llvm::StringRef Body) const {
  llvm::Expected<Json> J = parseBody(Body);
  if (!J)
    return J.takeError();
  try {
    llvm::Expected<ChatReply> Reply = replyFrom(*J);
    if (Reply) {
      Reply->Usage.InputTokens = tokenCount(*J, usageFields().Input);
      Reply->Usage.OutputTokens = tokenCount(*J, usageFields().Output);
    }
    return Reply;
  } catch (const Json::exception &E) {
    // A field missing or of another type than the API documents.
    return llvm::createStringError("unexpected response from the server: %s", E.what());
  }
}

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
