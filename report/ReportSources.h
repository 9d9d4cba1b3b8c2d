// Where a report's kernels come from: the entries of the cache directories it
// is given and, with a build log, the kernels that build looked up (its last
// record of each), each with its entry where a cache has it.
#pragma once

#include "report/ReportData.h"

#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::report {

struct CacheDir {
  std::string Dir;
  bool Project = false; // Looked in first, as kcc does.
};

struct ReportRequest {
  std::vector<CacheDir> Caches;
  std::optional<std::string> BuildLog;
  std::string Date; // Now, as entries record dates.
};

// Fails where the build log cannot be read; entries and log lines that cannot
// be read are listed in the data's Problems. With a build log the caches its
// records name are read too.
llvm::Expected<ReportData> gatherReport(const ReportRequest &Request);

} // namespace kopt::report
