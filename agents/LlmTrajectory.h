// Short-term memory as the llm engine's prompts show it: each attempt as one
// trajectory line for the planner, and a failed variant's evaluation as the
// text the debugger gets.
#pragma once

#include "agents/LlmPrompts.h"
#include "agents/OptimizeResult.h"

#include <optional>
#include <string>

namespace kopt::agents {

// "compile_error: ...", "faster 1.82x", with the variant's time where it was
// verified (Outcome null: the attempt never reached the evaluator).
TrajectoryStep trajectoryStep(const Attempt &A, const evaluator::VariantOutcome *Outcome);

// What the debugger should repair (the compile log, the failing element, the
// fault), or none for a verified variant.
std::optional<std::string> failureForDebugger(const evaluator::VariantOutcome &Outcome);

} // namespace kopt::agents
