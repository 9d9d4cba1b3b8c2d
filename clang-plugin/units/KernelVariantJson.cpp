#include "clang-plugin/units/KernelVariantJson.h"

#include <nlohmann/json.hpp>

namespace kopt::frontend {

namespace {
using Json = nlohmann::ordered_json;

llvm::Error fail(const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
}

// An expression given as a string or an integer.
llvm::Expected<std::string> expressionOf(const Json &J, llvm::StringRef Where) {
  if (J.is_string())
    return J.get<std::string>();
  if (J.is_number_integer())
    return std::to_string(J.get<int64_t>());
  return fail("'" + Where + "' must be a string or an integer expression");
}

llvm::Error readDims(const Json &Launch, const char *Key, std::array<std::string, 3> &Dims) {
  auto It = Launch.find(Key);
  if (It == Launch.end())
    return llvm::Error::success();
  if (!It->is_array() || It->empty() || It->size() > 3)
    return fail(llvm::Twine("'launch.") + Key + "' must be an array of 1 to 3 expressions");
  for (size_t I = 0; I < It->size(); ++I) {
    llvm::Expected<std::string> E = expressionOf((*It)[I], (llvm::Twine("launch.") + Key).str());
    if (!E)
      return E.takeError();
    Dims[I] = std::move(*E);
  }
  return llvm::Error::success();
}

llvm::Expected<std::string> requiredString(const Json &J, const char *Key) {
  auto It = J.find(Key);
  if (It == J.end() || !It->is_string() || It->get<std::string>().empty())
    return fail(llvm::Twine("a variant needs '") + Key + "', a non-empty string");
  return It->get<std::string>();
}

llvm::Expected<KernelVariant> variantFromObject(const Json &J) {
  if (!J.is_object())
    return fail("a variant must be a JSON object");
  if (auto F = J.find("format"); F != J.end() && *F != KernelVariantFormat.str())
    return fail("unknown variant format " + F->dump() + "; expected \"" + KernelVariantFormat +
                "\"");
  for (const auto &[Key, Value] : J.items())
    if (Key != "format" && Key != "kernel" && Key != "code" && Key != "variant_name" &&
        Key != "launch")
      return fail("unknown key '" + Key + "' in a variant");
  KernelVariant V;
  llvm::Expected<std::string> Kernel = requiredString(J, "kernel");
  if (!Kernel)
    return Kernel.takeError();
  V.KernelName = std::move(*Kernel);
  llvm::Expected<std::string> Code = requiredString(J, "code");
  if (!Code)
    return Code.takeError();
  V.Code = std::move(*Code);
  if (auto N = J.find("variant_name"); N != J.end()) {
    if (!N->is_string())
      return fail("'variant_name' must be a string");
    V.VariantName = N->get<std::string>();
  }
  auto L = J.find("launch");
  if (L == J.end())
    return V;
  if (V.VariantName.empty())
    return fail("'launch' needs 'variant_name': a variant that keeps the kernel's name keeps its "
                "launch");
  if (!L->is_object())
    return fail("'launch' must be an object with 'grid', 'block' and 'smem'");
  LaunchMapping M;
  for (const auto &[Key, Value] : L->items())
    if (Key != "grid" && Key != "block" && Key != "smem")
      return fail("unknown key '" + Key + "' in 'launch'");
  if (llvm::Error E = readDims(*L, "grid", M.Grid))
    return E;
  if (llvm::Error E = readDims(*L, "block", M.Block))
    return E;
  if (auto S = L->find("smem"); S != L->end()) {
    llvm::Expected<std::string> E = expressionOf(*S, "launch.smem");
    if (!E)
      return E.takeError();
    M.SharedMem = std::move(*E);
  }
  V.Launch = std::move(M);
  return V;
}

llvm::Expected<Json> parse(llvm::StringRef Text) {
  try {
    return Json::parse(Text.begin(), Text.end());
  } catch (const Json::parse_error &E) { // Its message says where.
    return fail(E.what());
  }
}
} // namespace

std::string kernelVariantToJson(const KernelVariant &V) {
  Json J = {{"format", KernelVariantFormat.str()}, {"kernel", V.KernelName}, {"code", V.Code}};
  if (!V.VariantName.empty())
    J["variant_name"] = V.VariantName;
  if (V.Launch)
    J["launch"] = {
        {"grid", V.Launch->Grid}, {"block", V.Launch->Block}, {"smem", V.Launch->SharedMem}};
  return J.dump(2) + "\n";
}

llvm::Expected<KernelVariant> kernelVariantFromJson(llvm::StringRef Text) {
  llvm::Expected<Json> J = parse(Text);
  if (!J)
    return J.takeError();
  return variantFromObject(*J);
}

llvm::Expected<std::vector<KernelVariant>> kernelVariantsFromJson(llvm::StringRef Text) {
  llvm::Expected<Json> J = parse(Text);
  if (!J)
    return J.takeError();
  std::vector<KernelVariant> Out;
  if (!J->is_array()) {
    llvm::Expected<KernelVariant> V = variantFromObject(*J);
    if (!V)
      return V.takeError();
    Out.push_back(std::move(*V));
    return Out;
  }
  for (size_t I = 0; I < J->size(); ++I) {
    llvm::Expected<KernelVariant> V = variantFromObject((*J)[I]);
    if (!V)
      return fail("variant " + llvm::Twine(I) + ": " + llvm::toString(V.takeError()));
    Out.push_back(std::move(*V));
  }
  return Out;
}

} // namespace kopt::frontend
