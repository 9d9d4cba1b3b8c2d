// The report as one self-contained HTML file: inline CSS, inline SVG plots
// and a small inline script that sorts the overview by any column. Nothing
// refers outside the file (no URL, no src=), so it opens from a CI artifact
// or a mail.
#pragma once

#include "report/ReportData.h"

#include <string>

namespace kopt::report {

std::string renderHtml(const ReportData &R);

} // namespace kopt::report
