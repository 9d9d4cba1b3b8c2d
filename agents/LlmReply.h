// What the llm engine pulls out of a model's reply: the planner's grounded plan
// (JSON) and the coder's or debugger's kernel (a code block). Models wrap both
// in prose and fences, several blocks, or run out of tokens midway; these
// functions find the intended part or say why there is none.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::agents {

struct PlanChange {
  std::string Lines; // "12" or "12-15", lines of the kernel unit as numbered in the prompt.
  std::string What;
};

struct Plan {
  std::string Skill; // A skill id from the prompt.
  std::vector<PlanChange> Changes;
  std::string Expected; // The metric movement the plan predicts: "dram_throughput up".
};

// The plan in Reply: a ```json fence, else the first JSON object in the text.
// Errors name what is missing or malformed.
llvm::Expected<Plan> parsePlan(llvm::StringRef Reply);

// The source of the code block in Reply that defines `__global__ ... KernelName(`.
// Prefers ```cuda/```cpp fences, then unlabelled ones, and the last such block;
// without fences, the code around the definition. A block cut off before the
// kernel's closing brace (a truncated reply) is an error.
llvm::Expected<std::string> extractKernelCode(llvm::StringRef Reply, llvm::StringRef KernelName);

} // namespace kopt::agents
