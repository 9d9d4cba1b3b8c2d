// Which engine optimizes a kernel: the pragma's engine(...) clause, else the
// engine option. skills: the mechanical transforms (no network). llm: a
// language model, which must be configured (model, key). auto: llm where it
// is configured, else skills.
#pragma once

#include "agents/LlmConfig.h"
#include "clang-plugin/model/KernelSummary.h"
#include "driver/config/KoptOptions.h"

#include <llvm/Support/Error.h>

#include <optional>
#include <string>

namespace kopt::driver {

struct EngineChoice {
  std::string Engine;                   // "skills" or "llm".
  std::optional<agents::LlmConfig> Llm; // Set for llm.
};

// Fails where llm is asked for and llmConfigFrom says what is missing (and,
// where the pragma asked, its File:line:col).
llvm::Expected<EngineChoice> chooseEngine(const frontend::KernelSummary &K, llvm::StringRef File,
                                          const KoptOptions &Options,
                                          const agents::EnvLookup &GetEnv);

// The process environment, for the API key's variable.
std::optional<std::string> processEnvironment(const char *Name);

} // namespace kopt::driver
