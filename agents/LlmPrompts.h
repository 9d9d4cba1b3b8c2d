// The llm engine's prompts for the planner, coder and debugger roles. Each is
// built from one PromptContext: what the loop knows about the kernel so far.
#pragma once

#include "agents/LlmChatModel.h"
#include "agents/LlmReply.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kopt::agents {

struct PromptSkill {
  std::string Id, Title, Guidance;
};

struct TrajectoryStep {
  std::string Variant; // Content hash or short name.
  std::string Skill;
  std::string Outcome; // "compile error", "wrong result", "slower", "faster", ...
  std::optional<double> TimeMs;
};

struct PromptContext {
  std::string KernelName;
  std::string KernelUnit; // The kernel and the device code it needs, as it compiles alone.
  std::vector<std::pair<std::string, std::string>> Profile; // Metric name, value.
  std::vector<PromptSkill> Skills;                          // Retrieved for this kernel.
  std::vector<TrajectoryStep> Trajectory;
  std::string BestUnit; // The fastest verified variant so far; "" while it is the original.
  std::string Failure;  // Debugger: the compile log or the verification failure.
};

// The planner answers with one JSON plan (parsePlan reads it).
std::vector<ChatMessage> plannerPrompt(const PromptContext &Context);
// The coder writes the variant that carries out Chosen, as one ```cuda block.
std::vector<ChatMessage> coderPrompt(const PromptContext &Context, const Plan &Chosen);
// The debugger repairs FailedCode from Context.Failure, as one ```cuda block.
std::vector<ChatMessage> debuggerPrompt(const PromptContext &Context, llvm::StringRef FailedCode);

// Text with each line prefixed by its number ("  12| "), as plans refer to lines.
std::string numberedLines(llvm::StringRef Text);

} // namespace kopt::agents
