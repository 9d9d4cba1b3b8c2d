#include "memory/cache/CacheKey.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>
#include <nlohmann/json.hpp>

namespace kopt::memory {

std::string digestOf(const std::string &Canonical) {
  std::array<uint8_t, 32> Hash = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Canonical.data()), Canonical.size()));
  return llvm::toHex(Hash, /*LowerCase=*/true);
}

CacheKey makeCacheKey(const CacheKeyInputs &In) {
  // JSON escapes every value, so no input can forge another's field.
  nlohmann::ordered_json Key = {
      {"key_format", KeyFormat},        {"unit", In.UnitHash},   {"environment", In.Environment},
      {"clauses", In.Clauses},          {"arch", In.Arch},       {"cuda", In.CudaVersion},
      {"device_flags", In.DeviceFlags}, {"kopt", In.KoptVersion}};
  if (!In.DeviceModel.empty()) // Architecture keys keep the text they always had.
    Key["device"] = In.DeviceModel;
  std::string Canonical = Key.dump();
  return {digestOf(Canonical), Canonical};
}

} // namespace kopt::memory
