#include "agents/TransformNotes.h"

#include "clang-plugin/transforms/framework/Transform.h"

#include <llvm/ADT/STLExtras.h>

namespace kopt::agents {

std::vector<memory::TransformNote> transformNotes(const TransformOutcomes &O) {
  std::vector<memory::TransformNote> Notes;
  for (const std::unique_ptr<transform::Transform> &T : transform::allTransforms()) {
    std::string Id = T->id().str();
    if (llvm::is_contained(O.Disabled, Id))
      Notes.push_back({Id, "disabled", "turned off by the pragma's skills(-" + Id + ")"});
    else if (O.Tried.count(Id))
      Notes.push_back({Id, "tried", ""});
    else if (auto It = O.Refused.find(Id); It != O.Refused.end())
      Notes.push_back({Id, "refused", It->second});
    else if (auto Why = O.NotOffered.find(Id); Why != O.NotOffered.end())
      Notes.push_back({Id, "not offered", Why->second});
    else // Offered, but the budget ended first or its steps were dead ends.
      Notes.push_back({Id, "not tried", "the search ended before it"});
  }
  return Notes;
}

} // namespace kopt::agents
