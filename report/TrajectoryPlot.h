// The trajectory plot of one kernel: the speedup of each variant the search
// evaluated, in order, marked by verdict (faster, not faster, wrong, failed to
// compile, failed to run: a shape and fill each as well as a colour), the
// best-so-far line and the original's 1x. Variants without a time (wrong,
// failed) sit in a band under the axis.
#pragma once

#include "report/KernelReport.h"

#include <string>

namespace kopt::report {

// The plot as an <svg> element; one that says so where nothing was evaluated.
std::string trajectoryPlot(const KernelReport &K);

} // namespace kopt::report
