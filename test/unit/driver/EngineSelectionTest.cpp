// Which engine a kernel gets: the pragma's engine(...) over the option; auto
// takes llm only where it is configured; llm unconfigured is an error that
// says where the choice came from and what to set.
#include "driver/optimize/EngineSelection.h"

#include <gtest/gtest.h>

#include <map>

using namespace kopt;
using namespace kopt::driver;

namespace {

frontend::KernelSummary kernelWith(std::optional<frontend::EngineKind> Engine) {
  frontend::KernelSummary K;
  K.Name = "scale";
  K.Pragma = frontend::PragmaClauses{};
  K.Pragma->Engine = Engine;
  K.Pragma->Line = 3;
  K.Pragma->Column = 9;
  return K;
}

struct Chooser {
  KoptOptions Options;
  std::map<std::string, std::string> Env;

  llvm::Expected<EngineChoice> choose(const frontend::KernelSummary &K) {
    return chooseEngine(K, "k.cu", Options, [this](const char *Name) -> std::optional<std::string> {
      auto It = Env.find(Name);
      return It == Env.end() ? std::nullopt : std::optional<std::string>(It->second);
    });
  }
  void set(llvm::StringRef Key, llvm::StringRef Value) {
    ASSERT_FALSE(bool(Options.set(Key, Value, OptionSource::CommandLine, "--kopt-" + Key.str())));
  }
};

std::string engineOf(llvm::Expected<EngineChoice> C) {
  if (!C)
    return "error: " + llvm::toString(C.takeError());
  return C->Engine + (C->Llm ? " " + C->Llm->Model : "");
}

TEST(EngineSelection, SkillsByDefault) {
  Chooser S;
  EXPECT_EQ(engineOf(S.choose(kernelWith(std::nullopt))), "skills");
}

TEST(EngineSelection, LlmNeedsItsConfiguration) {
  Chooser S;
  S.set("engine", "llm");
  EXPECT_EQ(engineOf(S.choose(kernelWith(std::nullopt))),
            "error: engine llm is not configured: the llm engine needs a model: "
            "set llm_model in .kopt.yaml, KOPT_LLM_MODEL or --kopt-llm-model=...");
  S.set("llm_model", "gpt-4o");
  EXPECT_EQ(engineOf(S.choose(kernelWith(std::nullopt))),
            "error: engine llm is not configured: the llm engine needs an API key "
            "in the environment variable OPENAI_API_KEY, which is not set (llm_api_key_env in "
            ".kopt.yaml, KOPT_LLM_API_KEY_ENV or --kopt-llm-api-key-env=... names another "
            "variable)");
  S.Env["OPENAI_API_KEY"] = "sk-test";
  llvm::Expected<EngineChoice> C = S.choose(kernelWith(std::nullopt));
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Engine, "llm");
  EXPECT_EQ(C->Llm->ApiKey, "sk-test");
}

TEST(EngineSelection, AutoTakesLlmOnlyWhereConfigured) {
  Chooser S;
  S.set("engine", "auto");
  EXPECT_EQ(engineOf(S.choose(kernelWith(std::nullopt))), "skills");
  S.set("llm_model", "gpt-4o");
  EXPECT_EQ(engineOf(S.choose(kernelWith(std::nullopt))), "skills"); // No key yet.
  S.Env["OPENAI_API_KEY"] = "sk-test";
  EXPECT_EQ(engineOf(S.choose(kernelWith(std::nullopt))), "llm gpt-4o");
}

TEST(EngineSelection, PragmaOverridesTheOption) {
  Chooser S;
  S.set("engine", "llm");
  EXPECT_EQ(engineOf(S.choose(kernelWith(frontend::EngineKind::Skills))), "skills");
  S.set("engine", "skills");
  EXPECT_EQ(engineOf(S.choose(kernelWith(frontend::EngineKind::Llm))),
            "error: engine llm (the pragma's engine(llm) at k.cu:3:9) is not configured: the "
            "llm engine needs a model: set llm_model in .kopt.yaml, KOPT_LLM_MODEL or "
            "--kopt-llm-model=...");
  EXPECT_EQ(engineOf(S.choose(kernelWith(frontend::EngineKind::Auto))), "skills");
}

} // namespace
