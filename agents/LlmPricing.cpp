#include "agents/LlmPricing.h"

namespace kopt::agents {

namespace {
struct PriceRow {
  llvm::StringRef Prefix;
  ModelPrice Price;
};

// List prices in USD per million tokens (input, output), as published by the
// providers in 2025. The only place prices live: update here.
const PriceRow Prices[] = {
    {"gpt-4o-mini", {0.15, 0.60}},
    {"gpt-4o", {2.50, 10.00}},
    {"gpt-4.1-nano", {0.10, 0.40}},
    {"gpt-4.1-mini", {0.40, 1.60}},
    {"gpt-4.1", {2.00, 8.00}},
    {"o4-mini", {1.10, 4.40}},
    {"o3-mini", {1.10, 4.40}},
    {"o3", {2.00, 8.00}},
    {"claude-3-5-haiku", {0.80, 4.00}},
    {"claude-3-5-sonnet", {3.00, 15.00}},
    {"claude-3-7-sonnet", {3.00, 15.00}},
    {"claude-sonnet-4", {3.00, 15.00}},
    {"claude-opus-4", {15.00, 75.00}},
};
} // namespace

std::optional<ModelPrice> priceOf(llvm::StringRef Model) {
  const PriceRow *Best = nullptr;
  for (const PriceRow &Row : Prices)
    if (Model.starts_with(Row.Prefix) && (!Best || Row.Prefix.size() > Best->Prefix.size()))
      Best = &Row;
  if (!Best)
    return std::nullopt;
  return Best->Price;
}

double costUsd(llvm::StringRef Model, int64_t InputTokens, int64_t OutputTokens) {
  std::optional<ModelPrice> Price = priceOf(Model);
  if (!Price)
    return 0;
  return (double(InputTokens) * Price->InputUsdPerMillion +
          double(OutputTokens) * Price->OutputUsdPerMillion) /
         1e6;
}

void UsageLedger::record(llvm::StringRef Kernel, const ChatUsage &Usage) {
  auto It = Kernels.find(Kernel);
  if (It == Kernels.end())
    It = Kernels.emplace(Kernel.str(), ChatUsage{}).first;
  It->second += Usage;
}

ChatUsage UsageLedger::forKernel(llvm::StringRef Kernel) const {
  auto It = Kernels.find(Kernel);
  return It == Kernels.end() ? ChatUsage{} : It->second;
}

ChatUsage UsageLedger::total() const {
  ChatUsage Sum;
  for (const auto &[Name, Usage] : Kernels)
    Sum += Usage;
  return Sum;
}

} // namespace kopt::agents
