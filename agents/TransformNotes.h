// What each transform did with one kernel, for the entry and the report
// (memory/cache/EntryReport.h): tried, refused by its code, offered no point
// of its parameters, or turned off by the pragma; and why, where the
// transform says.
#pragma once

#include "memory/cache/EntryReport.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kopt::agents {

// What the search knows of the transforms on the original kernel.
struct TransformOutcomes {
  std::set<std::string> Tried;                   // Ids of a step of any variant evaluated.
  std::map<std::string, std::string> Refused;    // Id -> why its code refused the original.
  std::map<std::string, std::string> NotOffered; // Id -> why it offered the original no point.
  std::vector<std::string> Disabled;             // The pragma's skills(-id).
};

// One note a transform, in allTransforms() order.
std::vector<memory::TransformNote> transformNotes(const TransformOutcomes &Outcomes);

} // namespace kopt::agents
