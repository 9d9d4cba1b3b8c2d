#include "clang-plugin/analysis/KernelSummaryJson.h"

#include "clang-plugin/pragma/PragmaJson.h"
#include "kopt/Version.h"

namespace kopt::frontend {

using Json = nlohmann::ordered_json;

Json kernelDeclarationToJson(const KernelSummary &K) {
  Json Params = Json::array();
  for (const KernelParam &P : K.Params) {
    Json Param = {{"name", P.Name}, {"type", P.Type}};
    // A scalar passed as another type: an enum's underlying type, a template type's.
    if (P.Category != ParamCategory::Pointer && !P.ElementType.empty() && P.ElementType != P.Type)
      Param["value_type"] = P.ElementType;
    Params.push_back(std::move(Param));
  }
  Json Out = {{"name", K.Name},
              {"mangled_name", K.MangledName},
              {"template", K.IsTemplate},
              {"line", K.Line},
              {"column", K.Column},
              {"params", Params},
              {"pragma", pragmaToJson(K.Pragma)}};
  if (!K.HeaderFile.empty()) // A kernel of a user header: line and column are in it.
    Out["header"] = K.HeaderFile;
  return Out;
}

Json instantiationsToJson(const std::vector<KernelInstantiation> &I) {
  Json Out = Json::array();
  for (const KernelInstantiation &Inst : I)
    Out.push_back({{"template_args", Inst.TemplateArgs}, {"mangled_name", Inst.MangledName}});
  return Out;
}

Json kernelManifestToJson(const std::string &File, const std::vector<KernelSummary> &Kernels) {
  Json Out = {{"format", "kopt-manifest-1"},
              {"file", File},
              {"kopt_version", Version},
              {"kernels", Json::array()}};
  for (const KernelSummary &K : Kernels) {
    if (!K.Pragma)
      continue;
    Json Kernel = kernelDeclarationToJson(K);
    Kernel["instantiations"] = instantiationsToJson(K.Instantiations);
    Out["kernels"].push_back(std::move(Kernel));
  }
  return Out;
}

} // namespace kopt::frontend
