// The profile figures an entry records (memory/cache/EntryReport.h) from the
// evaluator's profiles of the original and of the chosen variant, and the
// device's roofs from the baseline: how close to the hardware a kernel runs.
#pragma once

#include "agents/OptimizeResult.h"
#include "evaluator/Evaluator.h"
#include "memory/cache/EntryReport.h"

namespace kopt::driver {

// One launch's figures from its CUPTI counters; "not recorded" with the
// profile's reason where it has none.
memory::RunFigures runFiguresOf(const evaluator::Profile &P);

// The device's peaks: DRAM from its clocks, FP32 and FP64 from its SMs, and
// the copy rate the worker measured, else the one the original's profile
// implies (its bandwidth over its share of DRAM peak), saying which.
memory::DeviceRoofs deviceRoofsOf(const evaluator::Baseline &B, const memory::RunFigures &Original);

memory::EntryProfile entryProfileOf(const agents::OptimizeResult &O);

} // namespace kopt::driver
