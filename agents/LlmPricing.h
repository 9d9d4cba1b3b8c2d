// Token and cost accounting: one price table for all models (LlmPricing.cpp),
// and a ledger that sums what each kernel's optimization cost.
#pragma once

#include "agents/LlmChatModel.h"

#include <llvm/ADT/StringRef.h>

#include <map>
#include <optional>
#include <string>

namespace kopt::agents {

struct ModelPrice {
  double InputUsdPerMillion = 0, OutputUsdPerMillion = 0;
};

// The price of Model, matched by the longest table prefix (so dated names such
// as "gpt-4o-2024-08-06" find "gpt-4o"); none for a model not in the table.
std::optional<ModelPrice> priceOf(llvm::StringRef Model);

// Usage's cost under Model's price; 0 for an unknown model (tokens only).
double costUsd(llvm::StringRef Model, int64_t InputTokens, int64_t OutputTokens);

// What the llm engine spent, per kernel.
class UsageLedger {
public:
  void record(llvm::StringRef Kernel, const ChatUsage &Usage);
  ChatUsage forKernel(llvm::StringRef Kernel) const;
  ChatUsage total() const;
  const std::map<std::string, ChatUsage, std::less<>> &byKernel() const { return Kernels; }

private:
  std::map<std::string, ChatUsage, std::less<>> Kernels;
};

} // namespace kopt::agents
