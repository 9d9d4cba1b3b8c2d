// The planner's measured facts (memory/experience/KernelFacts.h) of an original kernel
// from its baseline: the profile's counters, the timing, the resources and
// the launch. Facts the baseline cannot give stay absent (unknown).
#pragma once

#include "evaluator/Evaluator.h"
#include "memory/experience/KernelFacts.h"

namespace kopt::driver {

memory::ProfileMetrics baselineMetrics(const evaluator::Baseline &B,
                                       const evaluator::LaunchGeometry &Launch);

} // namespace kopt::driver
