#include "memory/cache/VariantJson.h"

namespace kopt::memory {

nlohmann::json launchMappingToJson(const frontend::LaunchMapping &Launch) {
  return {{"grid", Launch.Grid}, {"block", Launch.Block}, {"smem", Launch.SharedMem}};
}

// nlohmann reports a missing or mistyped field by exception; the cache's
// callers get an llvm::Error instead.
llvm::Expected<frontend::LaunchMapping> launchMappingFromJson(const nlohmann::json &J) {
  try {
    frontend::LaunchMapping Launch;
    Launch.Grid = J.at("grid").get<std::array<std::string, 3>>();
    Launch.Block = J.at("block").get<std::array<std::string, 3>>();
    Launch.SharedMem = J.at("smem").get<std::string>();
    return Launch;
  } catch (const nlohmann::json::exception &E) {
    return llvm::createStringError("bad launch mapping: %s", E.what());
  }
}

nlohmann::json variantToJson(const frontend::KernelVariant &Variant) {
  nlohmann::json J = {{"kernel", Variant.KernelName},
                      {"code", Variant.Code},
                      {"variant_name", Variant.VariantName}};
  J["launch"] = Variant.Launch ? launchMappingToJson(*Variant.Launch) : nlohmann::json();
  return J;
}

llvm::Expected<frontend::KernelVariant> variantFromJson(const nlohmann::json &J) {
  frontend::KernelVariant Variant;
  try {
    Variant.KernelName = J.at("kernel").get<std::string>();
    Variant.Code = J.at("code").get<std::string>();
    Variant.VariantName = J.at("variant_name").get<std::string>();
  } catch (const nlohmann::json::exception &E) {
    return llvm::createStringError("bad variant: %s", E.what());
  }
  auto Launch = J.find("launch");
  if (Launch != J.end() && !Launch->is_null()) {
    llvm::Expected<frontend::LaunchMapping> Mapping = launchMappingFromJson(*Launch);
    if (!Mapping)
      return Mapping.takeError();
    Variant.Launch = std::move(*Mapping);
  }
  return Variant;
}

} // namespace kopt::memory
