// An evaluator for unit tests of the optimization loops, without a GPU: each
// variant's verdict comes from the first rule whose text its code holds (not
// faster at DefaultSpeedup where none does). A screen reports a faster
// variant as promising, as the real screen does; confirm() gives the verdict.
#pragma once

#include "evaluator/Evaluator.h"

#include <algorithm>
#include <string>
#include <vector>

namespace kopt::fakes {

class RuleEvaluator : public evaluator::VariantEvaluator {
public:
  struct Rule {
    std::string Contains;
    evaluator::Verdict Result;
    double Speedup;
    std::string Detail = {};
    std::vector<std::string> AlsoContains = {}; // The code must hold these too.
  };
  std::vector<Rule> Rules;
  double DefaultSpeedup = 1.0;
  double ScreenSeconds = 2, ConfirmSeconds = 3;   // What each stage says it cost.
  std::vector<std::string> Evaluated;             // The code of each evaluate() call.
  std::vector<evaluator::VariantLaunch> Launches; // Each evaluate() and screen() call's.
  unsigned Screens = 0, Confirms = 0;

  llvm::Expected<evaluator::Baseline> setOriginal(const evaluator::KernelSource &,
                                                  const evaluator::Workload &) override {
    evaluator::Baseline B;
    B.Device.Name = "Fake H100";
    B.Timing.MedianMs = 1;
    return B;
  }
  llvm::Expected<evaluator::VariantOutcome> evaluate(const evaluator::KernelSource &V,
                                                     const evaluator::VariantLaunch &L,
                                                     llvm::ArrayRef<uint64_t>) override {
    Evaluated.push_back(V.Code);
    Launches.push_back(L);
    return outcome(V.Code);
  }
  llvm::Expected<evaluator::VariantOutcome> screen(const evaluator::KernelSource &V,
                                                   const evaluator::VariantLaunch &L) override {
    ++Screens;
    Launches.push_back(L);
    evaluator::VariantOutcome O = outcome(V.Code);
    if (O.Result == evaluator::Verdict::Faster)
      O.Result = evaluator::Verdict::Promising;
    O.Seconds = ScreenSeconds;
    return O;
  }
  llvm::Expected<evaluator::VariantOutcome> confirm(const evaluator::KernelSource &V,
                                                    const evaluator::VariantLaunch &) override {
    ++Confirms;
    evaluator::VariantOutcome O = outcome(V.Code);
    O.Seconds = ConfirmSeconds;
    return O;
  }

private:
  evaluator::VariantOutcome outcome(const std::string &Code) const {
    evaluator::VariantOutcome O;
    O.Result = evaluator::Verdict::NotFaster;
    O.Speedup = DefaultSpeedup;
    for (const Rule &R : Rules)
      if (Code.find(R.Contains) != std::string::npos &&
          std::all_of(R.AlsoContains.begin(), R.AlsoContains.end(), [&](const std::string &Also) {
            return Code.find(Also) != std::string::npos;
          })) {
        O.Result = R.Result;
        O.Speedup = R.Speedup;
        O.Detail = R.Detail;
        break;
      }
    if (O.Result == evaluator::Verdict::CompileError)
      O.Compile = {"nvrtc", O.Detail, 0.1};
    if (O.Speedup > 0) {
      O.Variant.MedianMs = 1 / O.Speedup;
      O.SeedsVerified = 3;
    }
    return O;
  }
};

} // namespace kopt::fakes
