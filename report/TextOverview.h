// `kopt report --text`: the overview table and the totals, for a terminal.
#pragma once

#include "report/ReportData.h"

#include <string>

namespace kopt::report {

std::string renderText(const ReportData &R);

} // namespace kopt::report
