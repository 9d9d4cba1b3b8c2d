// JSON for the front end's KernelVariant and LaunchMapping, as cache entries
// hold them.
#pragma once

#include "clang-plugin/model/KernelVariant.h"

#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

namespace kopt::memory {

nlohmann::json launchMappingToJson(const frontend::LaunchMapping &Launch);
llvm::Expected<frontend::LaunchMapping> launchMappingFromJson(const nlohmann::json &J);

nlohmann::json variantToJson(const frontend::KernelVariant &Variant);
llvm::Expected<frontend::KernelVariant> variantFromJson(const nlohmann::json &J);

} // namespace kopt::memory
