// Small helpers the transforms share: the pragma's launch, parameter checks.
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"

#include <initializer_list>

namespace kopt::transform {

// The pragma's block size (the product of its dimensions) with its args
// resolved; empty without a launch clause or where it does not evaluate.
std::optional<int64_t> pragmaBlockThreads(const frontend::KernelSummary &Kernel);
// The pragma's block dimensions; empty as above.
std::optional<std::array<int64_t, 3>> pragmaBlockDims(const frontend::KernelSummary &Kernel);

// The threads the pragma's launch starts (grid times block); empty as above.
std::optional<int64_t> pragmaThreadsLaunched(const frontend::KernelSummary &Kernel);

// Text (an expression as the front end reports it: a loop bound) as an
// integer under the pragma's args; empty where it does not evaluate.
std::optional<int64_t> pragmaIntValue(const frontend::KernelSummary &Kernel,
                                      const std::string &Text);

// A parameter missing or out of its values: which one, and a value it takes,
// so a caller asking why a transform does not apply can ask again with it.
class ParamValueError : public llvm::ErrorInfo<ParamValueError> {
public:
  static char ID;
  ParamValueError(std::string Text, std::string Param, int64_t Value)
      : Message(std::move(Text)), Name(std::move(Param)), Accepted(Value) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  std::string Message, Name;
  int64_t Accepted; // The first allowed value; 0 where any value is.
};

// Params[Name], which must be one of Allowed (any value where Allowed is
// empty); a ParamValueError where it is missing or not allowed.
llvm::Expected<int64_t> requireParam(const ParamSet &Params, llvm::StringRef Name,
                                     std::initializer_list<int64_t> Allowed = {});

// Fails where Params holds a name that is not in Known.
llvm::Error checkParamNames(const ParamSet &Params, std::initializer_list<llvm::StringRef> Known);

} // namespace kopt::transform
