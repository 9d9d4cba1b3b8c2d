#include "agents/TransformNotes.h"

#include "clang-plugin/transforms/framework/ParamSetText.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"

#include <llvm/ADT/STLExtras.h>

namespace kopt::agents {

std::string whyNotOffered(const transform::Transform &T, const frontend::KernelSummary &Unit,
                          const std::vector<std::string> &ClangArgs) {
  transform::ParamSet Params;
  transform::TransformInput In{Unit, Unit.Unit.Text, ClangArgs};
  for (int Attempt = 0; Attempt < 8; ++Attempt) {
    llvm::Expected<transform::TransformOutput> Made = T.apply(In, Params);
    if (Made) {
      std::string Why = "the kernel's features rule it out, though its code would take ";
      Why += T.id();
      if (!Params.empty()) {
        Why += ':';
        Why += transform::formatParamSet(Params);
      }
      return Why;
    }
    std::string Reason;
    llvm::handleAllErrors(
        Made.takeError(), [&](const transform::ParamValueError &E) { Params[E.Name] = E.Accepted; },
        [&](const llvm::ErrorInfoBase &E) { Reason = E.message(); });
    if (!Reason.empty())
      return Reason;
  }
  return "its parameters were not settled";
}

std::vector<memory::TransformNote>
transformNotes(const TransformOutcomes &O,
               const std::function<std::string(const transform::Transform &)> &WhyNotOffered) {
  std::vector<memory::TransformNote> Notes;
  for (const std::unique_ptr<transform::Transform> &T : transform::allTransforms()) {
    std::string Id = T->id().str();
    if (llvm::is_contained(O.Disabled, Id))
      Notes.push_back({Id, "disabled", "turned off by the pragma's skills(-" + Id + ")"});
    else if (O.Tried.count(Id))
      Notes.push_back({Id, "tried", ""});
    else if (auto It = O.Refused.find(Id); It != O.Refused.end())
      Notes.push_back({Id, "refused", It->second});
    else if (O.NotOffered.count(Id))
      Notes.push_back({Id, "not offered", WhyNotOffered(*T)});
    else // Offered, but the budget ended first or its steps were dead ends.
      Notes.push_back({Id, "not tried", "the search ended before it"});
  }
  return Notes;
}

} // namespace kopt::agents
