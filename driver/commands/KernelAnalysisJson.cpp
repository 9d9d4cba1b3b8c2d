#include "driver/commands/KernelAnalysisJson.h"

#include "clang-plugin/analysis/KernelSummaryJson.h"
#include "memory/experience/KernelFacts.h"

namespace kopt::driver {

namespace {
using Json = nlohmann::ordered_json;

Json exprToJson(const frontend::LaunchExpr &E) {
  return {{"text", E.Text}, {"expanded", E.Expanded}, {"begin", E.Begin}, {"end", E.End}};
}

Json exprToJson(const std::optional<frontend::LaunchExpr> &E) {
  return E ? exprToJson(*E) : Json(nullptr);
}

Json callsToJson(const std::vector<frontend::CallFeature> &Calls) {
  Json Out = Json::array();
  for (const frontend::CallFeature &C : Calls)
    Out.push_back({{"name", C.Name}, {"line", C.Line}, {"column", C.Column}});
  return Out;
}

const char *loopKindName(frontend::LoopFeature::Kind K) {
  switch (K) {
  case frontend::LoopFeature::Kind::For:
    return "for";
  case frontend::LoopFeature::Kind::While:
    return "while";
  case frontend::LoopFeature::Kind::Do:
    return "do";
  }
  return "for";
}

Json loopIndex(int Loop) { return Loop < 0 ? Json(nullptr) : Json(Loop); }

Json optionalText(const std::string &S) { return S.empty() ? Json(nullptr) : Json(S); }
} // namespace

Json launchSitesToJson(const std::vector<frontend::LaunchSite> &Sites) {
  Json Out = Json::array();
  for (const frontend::LaunchSite &S : Sites) {
    Json Args = Json::array();
    for (const frontend::LaunchExpr &A : S.Args)
      Args.push_back(exprToJson(A));
    Out.push_back({{"caller", S.Caller},
                   {"template_args", optionalText(S.TemplateArgs)},
                   {"line", S.Line},
                   {"column", S.Column},
                   {"begin", S.Begin},
                   {"end", S.End},
                   {"grid", exprToJson(S.Grid)},
                   {"block", exprToJson(S.Block)},
                   {"shared_mem", exprToJson(S.SharedMem)},
                   {"stream", exprToJson(S.Stream)},
                   {"args", Args}});
  }
  return Out;
}

Json featuresToJson(const frontend::KernelFeatures &F) {
  Json Loops = Json::array();
  for (const frontend::LoopFeature &L : F.Loops)
    Loops.push_back({{"kind", loopKindName(L.LoopKind)},
                     {"line", L.Line},
                     {"column", L.Column},
                     {"depth", L.Depth},
                     {"induction_var", optionalText(L.InductionVar)},
                     {"init", optionalText(L.Init)},
                     {"comparison", optionalText(L.Comparison)},
                     {"bound", optionalText(L.Bound)},
                     {"step", optionalText(L.Step)},
                     {"increment", optionalText(L.Increment)},
                     {"canonical", L.Canonical},
                     {"unroll", L.Unroll},
                     {"unroll_count", optionalText(L.UnrollCount)},
                     {"bound_params", L.BoundParams},
                     {"offsets_param", optionalText(L.OffsetsParam)},
                     {"row_params", L.RowParams}});
  Json Accesses = Json::array();
  for (const frontend::MemoryAccess &A : F.Accesses)
    Accesses.push_back({{"param", A.Param},
                        {"index", A.Index},
                        {"read", A.Read},
                        {"write", A.Write},
                        {"pattern", frontend::accessPatternName(A.Pattern)},
                        {"stride", optionalText(A.Stride)},
                        {"line", A.Line},
                        {"column", A.Column},
                        {"loop", loopIndex(A.Loop)}});
  Json Repeated = Json::array();
  for (const frontend::RepeatedAccess &R : F.RepeatedAccesses)
    Repeated.push_back({{"param", R.Param},
                        {"index", R.Index},
                        {"loop", loopIndex(R.Loop)},
                        {"read", R.Read},
                        {"write", R.Write},
                        {"count", R.Count}});
  Json Guards = Json::array();
  for (const frontend::BoundsGuard &G : F.Guards)
    Guards.push_back(
        {{"condition", G.Condition}, {"params", G.Params}, {"line", G.Line}, {"column", G.Column}});
  Json Shared = Json::array();
  for (const frontend::SharedVariable &S : F.SharedVariables)
    Shared.push_back({{"name", S.Name},
                      {"type", S.Type},
                      {"bytes", S.Bytes ? Json(*S.Bytes) : Json(nullptr)},
                      {"dynamic", S.Dynamic}});
  return {{"index_builtins", F.IndexBuiltins},
          {"dimensions", F.Dimensions},
          {"loops", Loops},
          {"accesses", Accesses},
          {"repeated_accesses", Repeated},
          {"guards", Guards},
          {"shared", Shared},
          {"atomics", callsToJson(F.Atomics)},
          {"barriers", callsToJson(F.Barriers)},
          {"warp_intrinsics", callsToJson(F.WarpIntrinsics)},
          {"math_calls", callsToJson(F.MathCalls)}};
}

void addKernelAnalysisJson(Json &Kernel, const frontend::KernelSummary &K) {
  Kernel["launch_sites"] = launchSitesToJson(K.LaunchSites);
  Kernel["instantiations"] = frontend::instantiationsToJson(K.Instantiations);
  Kernel["features"] = featuresToJson(K.Features);
  Kernel["kind"] = memory::kernelKind(K.Features); // What the skill library sees.
}

} // namespace kopt::driver
