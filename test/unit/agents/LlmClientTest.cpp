// The llm engine's offline parts: configuration, the two HTTP dialects, prices
// and the per-kernel ledger, and the prompts.
#include "agents/LlmConfig.h"
#include "agents/LlmDialect.h"
#include "agents/LlmPricing.h"
#include "agents/LlmPrompts.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

using namespace kopt::agents;
using Json = nlohmann::json;

namespace {
template <typename T> std::string errorOf(llvm::Expected<T> V) {
  return V ? "success" : llvm::toString(V.takeError());
}

llvm::Expected<LlmConfig> configFrom(std::map<std::string, std::string> Options,
                                     std::map<std::string, std::string> Env) {
  return llmConfigFrom(
      [&](llvm::StringRef Key) {
        auto It = Options.find(Key.str());
        return It == Options.end() ? std::string() : It->second;
      },
      [&](const char *Name) -> std::optional<std::string> {
        auto It = Env.find(Name);
        if (It == Env.end())
          return std::nullopt;
        return It->second;
      });
}

LlmConfig testConfig(const char *Provider) {
  LlmConfig C;
  C.Provider = Provider;
  C.BaseUrl = "http://localhost:8000";
  C.Model = "m";
  C.ApiKey = "sk-secret";
  C.TimeoutSeconds = 7;
  return C;
}

const std::vector<ChatMessage> Conversation = {{ChatMessage::Role::System, "be brief"},
                                               {ChatMessage::Role::User, "hello"},
                                               {ChatMessage::Role::Assistant, "hi"},
                                               {ChatMessage::Role::User, "plan"}};
} // namespace

TEST(LlmConfig, DefaultsFollowTheProvider) {
  llvm::Expected<LlmConfig> C =
      configFrom({{"llm_model", "gpt-4o"}, {"llm_timeout", "90s"}, {"llm_retries", "5"}},
                 {{"OPENAI_API_KEY", " sk-a \n"}});
  ASSERT_TRUE(bool(C)) << errorOf(std::move(C));
  EXPECT_EQ(C->Provider, "openai");
  EXPECT_EQ(C->BaseUrl, "https://api.openai.com/v1");
  EXPECT_EQ(C->ApiKey, "sk-a");
  EXPECT_EQ(C->ApiKeyEnv, "OPENAI_API_KEY");
  EXPECT_EQ(C->TimeoutSeconds, 90);
  EXPECT_EQ(C->MaxRetries, 5);

  C = configFrom({{"llm_provider", "anthropic"}, {"llm_model", "claude-sonnet-4"}},
                 {{"ANTHROPIC_API_KEY", "sk-b"}, {"OPENAI_API_KEY", "sk-a"}});
  ASSERT_TRUE(bool(C)) << errorOf(std::move(C));
  EXPECT_EQ(C->BaseUrl, "https://api.anthropic.com");
  EXPECT_EQ(C->ApiKey, "sk-b");
}

TEST(LlmConfig, TheKeyComesFromTheNamedVariable) {
  llvm::Expected<LlmConfig> C = configFrom({{"llm_model", "local"},
                                            {"llm_base_url", "http://gpu-box:8000/v1/"},
                                            {"llm_api_key_env", "MY_KEY"}},
                                           {{"MY_KEY", "k"}, {"OPENAI_API_KEY", "other"}});
  ASSERT_TRUE(bool(C)) << errorOf(std::move(C));
  EXPECT_EQ(C->ApiKey, "k");
  EXPECT_EQ(C->BaseUrl, "http://gpu-box:8000/v1"); // Trailing slash dropped.
}

TEST(LlmConfig, MissingPiecesAreClearErrors) {
  EXPECT_EQ(errorOf(configFrom({}, {{"OPENAI_API_KEY", "k"}})),
            "the llm engine needs a model: set llm_model in .kopt.yaml, KOPT_LLM_MODEL or "
            "--kopt-llm-model=...");
  EXPECT_EQ(errorOf(configFrom({{"llm_model", "m"}, {"llm_api_key_env", "MY_KEY"}}, {})),
            "the llm engine needs an API key in the environment variable MY_KEY, which is not "
            "set (llm_api_key_env in .kopt.yaml, KOPT_LLM_API_KEY_ENV or "
            "--kopt-llm-api-key-env=... names another variable)");
  EXPECT_EQ(errorOf(configFrom({{"llm_model", "m"}, {"llm_base_url", "gpu-box:8000"}},
                               {{"OPENAI_API_KEY", "k"}})),
            "llm_base_url 'gpu-box:8000' is not an http:// or https:// URL");
}

TEST(LlmDialect, OpenAiRequestAndReply) {
  HttpRequest R = openAiDialect()->request(testConfig("openai"), Conversation, 300);
  EXPECT_EQ(R.Url, "http://localhost:8000/chat/completions");
  EXPECT_EQ(R.Headers, (std::vector<std::string>{"Content-Type: application/json",
                                                 "Authorization: Bearer sk-secret"}));
  EXPECT_EQ(R.TimeoutSeconds, 7);
  Json Body = Json::parse(R.Body);
  EXPECT_EQ(Body["model"], "m");
  EXPECT_EQ(Body["max_tokens"], 300);
  ASSERT_EQ(Body["messages"].size(), 4u);
  EXPECT_EQ(Body["messages"][0], Json({{"role", "system"}, {"content", "be brief"}}));
  EXPECT_EQ(Body["messages"][2]["role"], "assistant");

  llvm::Expected<ChatReply> Reply = openAiDialect()->reply(
      R"({"choices": [{"message": {"role": "assistant", "content": "ok"},
          "finish_reason": "length"}], "usage": {"prompt_tokens": 11, "completion_tokens": 3}})");
  ASSERT_TRUE(bool(Reply)) << errorOf(std::move(Reply));
  EXPECT_EQ(Reply->Text, "ok");
  EXPECT_TRUE(Reply->Truncated);
  EXPECT_EQ(Reply->Usage.InputTokens, 11);
  EXPECT_EQ(Reply->Usage.OutputTokens, 3);

  EXPECT_EQ(errorOf(openAiDialect()->reply(R"({"choices": []})")),
            "the chat completion has no choices[0].message.content");
  EXPECT_EQ(errorOf(openAiDialect()->reply(R"({"choices": [{"message": "oops"}]})"))
                .rfind("unexpected response from the server: ", 0),
            0u);
  EXPECT_EQ(errorOf(anthropicDialect()->reply(R"({"content": ["oops"]})"))
                .rfind("unexpected response from the server: ", 0),
            0u);
  EXPECT_EQ(errorOf(openAiDialect()->reply("<html>bad gateway</html>")),
            "the server's response is not a JSON object: '<html>bad gateway</html>'");
}

TEST(LlmDialect, AnthropicRequestAndReply) {
  HttpRequest R = anthropicDialect()->request(testConfig("anthropic"), Conversation, 300);
  EXPECT_EQ(R.Url, "http://localhost:8000/v1/messages");
  EXPECT_EQ(R.Headers,
            (std::vector<std::string>{"Content-Type: application/json", "x-api-key: sk-secret",
                                      "anthropic-version: 2023-06-01"}));
  Json Body = Json::parse(R.Body);
  EXPECT_EQ(Body["system"], "be brief");
  ASSERT_EQ(Body["messages"].size(), 3u); // The system prompt is not a message.
  EXPECT_EQ(Body["messages"][0], Json({{"role", "user"}, {"content", "hello"}}));

  llvm::Expected<ChatReply> Reply = anthropicDialect()->reply(
      R"({"content": [{"type": "text", "text": "a"}, {"type": "tool_use"}, {"type": "text",
          "text": "b"}], "stop_reason": "end_turn", "usage": {"input_tokens": 5,
          "output_tokens": 2}})");
  ASSERT_TRUE(bool(Reply)) << errorOf(std::move(Reply));
  EXPECT_EQ(Reply->Text, "ab");
  EXPECT_FALSE(Reply->Truncated);
  EXPECT_EQ(Reply->Usage.InputTokens, 5);
}

TEST(LlmDialect, ServerErrorMessages) {
  EXPECT_EQ(serverErrorMessage(R"({"error": {"message": "slow down", "type": "rate"}})"),
            "slow down");
  EXPECT_EQ(serverErrorMessage(R"({"type": "error", "error": {"type": "overloaded_error",
            "message": "Overloaded"}})"),
            "Overloaded");
  EXPECT_EQ(serverErrorMessage("  upstream timed out\n"), "upstream timed out");
  EXPECT_EQ(serverErrorMessage(""), "(empty body)");
}

TEST(LlmPricing, LongestPrefixAndUnknownModels) {
  ASSERT_TRUE(priceOf("gpt-4o-mini-2024-07-18").has_value());
  EXPECT_EQ(priceOf("gpt-4o-mini-2024-07-18")->InputUsdPerMillion, 0.15);
  EXPECT_EQ(priceOf("gpt-4o-2024-08-06")->InputUsdPerMillion, 2.50);
  EXPECT_FALSE(priceOf("my-local-llama").has_value());
  EXPECT_DOUBLE_EQ(costUsd("claude-sonnet-4-20250514", 1'000'000, 100'000), 3.0 + 1.5);
  EXPECT_EQ(costUsd("my-local-llama", 1'000'000, 1'000'000), 0);
}

TEST(LlmPricing, LedgerSumsPerKernel) {
  UsageLedger L;
  L.record("a", {10, 2, 0.5});
  L.record("b", {1, 1, 0});
  L.record("a", {5, 3, 0.25});
  EXPECT_EQ(L.forKernel("a").InputTokens, 15);
  EXPECT_EQ(L.forKernel("a").OutputTokens, 5);
  EXPECT_DOUBLE_EQ(L.forKernel("a").CostUsd, 0.75);
  EXPECT_EQ(L.forKernel("c").InputTokens, 0);
  EXPECT_EQ(L.total().InputTokens, 16);
  EXPECT_EQ(L.byKernel().size(), 2u);
}

TEST(LlmPrompts, CarryTheContextEachRoleNeeds) {
  PromptContext C;
  C.KernelName = "axpy";
  C.KernelUnit = "__global__ void axpy(float *y) {\n  y[0] = 1;\n}\n";
  C.Profile = {{"bottleneck", "memory"}, {"dram_throughput_pct", "40"}};
  C.Skills = {{"vec", "Vectorize", "use float4"}, {"unroll", "Unroll", "unroll by 4"}};
  C.Trajectory = {{"v1", "unroll", "compile error", std::nullopt}, {"v2", "vec", "faster", 0.125}};
  C.BestUnit = "__global__ void axpy(float *y) { /* best */ }";
  C.Failure = "error: identifier \"q\" is undefined";

  std::vector<ChatMessage> Planner = plannerPrompt(C);
  ASSERT_EQ(Planner.size(), 2u);
  EXPECT_EQ(Planner[0].From, ChatMessage::Role::System);
  EXPECT_NE(Planner[0].Text.find("{\"skill\":"), std::string::npos);
  const std::string &U = Planner[1].Text;
  for (const char *Part :
       {"   2|   y[0] = 1;", "dram_throughput_pct=40", "### vec: Vectorize\nuse float4",
        "- v1: skill unroll, compile error\n", "- v2: skill vec, faster, 0.125 ms", "/* best */"})
    EXPECT_NE(U.find(Part), std::string::npos) << Part;

  Plan P{"vec", {{"2", "store a float4"}}, "dram_throughput up"};
  std::string Coder = coderPrompt(C, P)[1].Text;
  EXPECT_NE(Coder.find("- lines 2: store a float4"), std::string::npos);
  EXPECT_NE(Coder.find("## How to apply vec\nuse float4"), std::string::npos);
  EXPECT_EQ(Coder.find("unroll by 4"), std::string::npos); // Only the chosen skill's guidance.

  std::string Debugger = debuggerPrompt(C, "__global__ void axpy(float *y) { q = 1; }")[1].Text;
  EXPECT_NE(Debugger.find("```cuda\n__global__ void axpy(float *y) { q = 1; }\n```"),
            std::string::npos);
  EXPECT_NE(Debugger.find("error: identifier \"q\" is undefined"), std::string::npos);
}

TEST(LlmPrompts, NumberedLines) {
  EXPECT_EQ(numberedLines("a\nb\n"), "   1| a\n   2| b\n");
  EXPECT_EQ(numberedLines("a"), "   1| a\n");
}
