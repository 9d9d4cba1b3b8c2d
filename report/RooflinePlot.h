// The roofline plot of one kernel: arithmetic intensity (floating-point
// operations per DRAM byte) against achieved GFLOP/s, for the original and the
// variant, under the device's roofs (DRAM bandwidth, the copy rate where it
// was measured, FP32 and FP64 peaks); beside it the share of DRAM and SM peak
// before and after. Where the profile was not recorded, the plot says so.
#pragma once

#include "report/KernelReport.h"

#include <string>

namespace kopt::report {

std::string rooflinePlot(const KernelReport &K);

} // namespace kopt::report
