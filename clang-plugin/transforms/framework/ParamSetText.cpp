#include "clang-plugin/transforms/framework/ParamSetText.h"

#include <llvm/ADT/SmallVector.h>

namespace kopt::transform {

llvm::Expected<StepSpec> parseStepSpec(llvm::StringRef Text) {
  auto [Id, Rest] = Text.split(':');
  Id = Id.trim();
  if (Id.empty())
    return llvm::createStringError("'%s': no transform id", Text.str().c_str());
  StepSpec Spec{Id.str(), {}};
  if (!Text.contains(':'))
    return Spec;
  llvm::SmallVector<llvm::StringRef> Items;
  Rest.split(Items, ',');
  for (llvm::StringRef Item : Items) {
    auto [Key, Value] = Item.split('=');
    Key = Key.trim();
    Value = Value.trim();
    int64_t Number = 0;
    if (Key.empty() || !Item.contains('=') || Value.getAsInteger(0, Number))
      return llvm::createStringError("'%s': parameter '%s' is not NAME=INTEGER", Text.str().c_str(),
                                     Item.str().c_str());
    if (!Spec.Params.emplace(Key.str(), Number).second)
      return llvm::createStringError("'%s': parameter '%s' given twice", Text.str().c_str(),
                                     Key.str().c_str());
  }
  return Spec;
}

std::string formatParamSet(const ParamSet &Params) {
  std::string Out;
  for (const auto &[Key, Value] : Params) {
    if (!Out.empty())
      Out += ",";
    Out += Key + "=" + std::to_string(Value);
  }
  return Out;
}

} // namespace kopt::transform
