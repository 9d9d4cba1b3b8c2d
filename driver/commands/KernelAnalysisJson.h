// What the front end's analyses found about a kernel, as JSON for kopt inspect.
#pragma once

#include "clang-plugin/model/KernelSummary.h"

#include <nlohmann/json.hpp>

namespace kopt::driver {

nlohmann::ordered_json launchSitesToJson(const std::vector<frontend::LaunchSite> &Sites);
nlohmann::ordered_json instantiationsToJson(const std::vector<frontend::KernelInstantiation> &I);
nlohmann::ordered_json featuresToJson(const frontend::KernelFeatures &F);

// Adds "launch_sites", "instantiations" and "features" to Kernel's object.
void addKernelAnalysisJson(nlohmann::ordered_json &Kernel, const frontend::KernelSummary &K);

} // namespace kopt::driver
