// What each transform did with one kernel, for the entry and the report
// (memory/cache/EntryReport.h): tried, refused by its code, offered no point
// of its parameters, or turned off by the pragma; and why, where the
// transform says.
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"
#include "memory/cache/EntryReport.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kopt::agents {

// Why T offers Unit no point: its refusal, asked with values its parameters
// take (a missing or unaccepted value is replaced and T asked again), or,
// where it would apply, that the planner's reading of the kernel rules it out.
std::string whyNotOffered(const transform::Transform &T, const frontend::KernelSummary &Unit,
                          const std::vector<std::string> &ClangArgs);

// What the search knows of the transforms on the original kernel.
struct TransformOutcomes {
  std::set<std::string> Tried;                // Ids of a step of any variant evaluated.
  std::map<std::string, std::string> Refused; // Id -> why, on the original.
  std::set<std::string> NotOffered;           // No parameter point for the original.
  std::vector<std::string> Disabled;          // The pragma's skills(-id).
};

// One note a transform, in allTransforms() order. WhyNotOffered is asked for
// each transform that offered no point (a parse each).
std::vector<memory::TransformNote>
transformNotes(const TransformOutcomes &Outcomes,
               const std::function<std::string(const transform::Transform &)> &WhyNotOffered);

} // namespace kopt::agents
