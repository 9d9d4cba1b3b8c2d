#include "agents/LlmChatModel.h"

#include "agents/LlmDialect.h"
#include "agents/LlmPricing.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace kopt::agents {

ChatModel::~ChatModel() = default;

ChatUsage &ChatUsage::operator+=(const ChatUsage &Other) {
  InputTokens += Other.InputTokens;
  OutputTokens += Other.OutputTokens;
  CostUsd += Other.CostUsd;
  return *this;
}

namespace {
// Servers sometimes quote the key they rejected; it must not reach our messages.
std::string withoutKey(std::string Text, const std::string &Key) {
  if (Key.empty())
    return Text;
  for (size_t At = Text.find(Key); At != std::string::npos; At = Text.find(Key, At))
    Text.replace(At, Key.size(), "[API key]");
  return Text;
}

bool isRetryable(long Status) { return Status == 429 || Status >= 500; }

class HttpChatModel : public ChatModel {
public:
  HttpChatModel(LlmConfig TheConfig, std::unique_ptr<LlmDialect> TheDialect)
      : Config(std::move(TheConfig)), Dialect(std::move(TheDialect)) {}

  llvm::Expected<ChatReply> chat(llvm::ArrayRef<ChatMessage> Messages, int MaxTokens) override {
    HttpRequest Request = Dialect->request(Config, Messages, MaxTokens);
    double Backoff = Config.BackoffSeconds, Waited = 0;
    for (int Attempt = 1;; ++Attempt) {
      llvm::Expected<HttpResponse> Response = httpPost(Request);
      bool LastAttempt = Attempt > Config.MaxRetries;
      std::optional<double> RetryAfter;
      std::string Failure;
      if (!Response) {
        // No response at all (refused, timed out): as transient as a 5xx.
        Failure = llvm::toString(Response.takeError());
      } else if (Response->Status >= 200 && Response->Status < 300) {
        return finish(Response->Body, Attempt, Waited);
      } else {
        Failure = "HTTP " + std::to_string(Response->Status) + " from " + Request.Url + ": " +
                  serverErrorMessage(Response->Body);
        if (!isRetryable(Response->Status))
          return fail(Failure + " (not retried)");
        RetryAfter = Response->RetryAfterSeconds;
      }
      if (LastAttempt)
        return fail(Failure + " (gave up after " + std::to_string(Attempt) + " attempts)");
      double Wait = std::min(RetryAfter.value_or(Backoff), Config.MaxBackoffSeconds);
      std::this_thread::sleep_for(std::chrono::duration<double>(Wait));
      Waited += Wait;
      Backoff *= 2;
    }
  }

private:
  llvm::Expected<ChatReply> finish(llvm::StringRef Body, int Attempts, double Waited) {
    llvm::Expected<ChatReply> Reply = Dialect->reply(Body);
    if (!Reply)
      return fail(Config.Model + ": " + llvm::toString(Reply.takeError()));
    Reply->Attempts = Attempts;
    Reply->WaitedSeconds = Waited;
    Reply->Usage.CostUsd =
        costUsd(Config.Model, Reply->Usage.InputTokens, Reply->Usage.OutputTokens);
    return Reply;
  }

  llvm::Error fail(const std::string &Message) const {
    return llvm::createStringError(withoutKey(Message, Config.ApiKey));
  }

  LlmConfig Config;
  std::unique_ptr<LlmDialect> Dialect;
};
} // namespace

llvm::Expected<std::unique_ptr<ChatModel>> createChatModel(const LlmConfig &Config) {
  if (Config.ApiKey.empty())
    return llvm::createStringError("the llm engine has no API key (environment variable %s)",
                                   Config.ApiKeyEnv.c_str());
  if (Config.Provider == "openai")
    return std::make_unique<HttpChatModel>(Config, openAiDialect());
  if (Config.Provider == "anthropic")
    return std::make_unique<HttpChatModel>(Config, anthropicDialect());
  return llvm::createStringError("unknown llm provider '%s'; expected openai or anthropic",
                                 Config.Provider.c_str());
}

} // namespace kopt::agents
