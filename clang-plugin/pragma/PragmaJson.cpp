#include "clang-plugin/pragma/PragmaJson.h"

namespace kopt::frontend {

namespace {

using Json = nlohmann::ordered_json;

class PragmaWriter {
public:
  explicit PragmaWriter(const PragmaClauses &Clauses)
      : P(Clauses), Args(resolveArgValues(Clauses)) {}

  Json write() const {
    Json Out;
    Out["line"] = P.Line;
    Out["column"] = P.Column;
    Out["launch"] = P.Launch ? launch(*P.Launch) : Json();
    Out["args"] = P.Args ? args(*P.Args) : Json();
    Out["buffers"] = P.Buffers ? buffers(*P.Buffers) : Json();
    Out["tol"] =
        P.Tol ? Json{{"rtol", optional(P.Tol->Rtol)}, {"atol", optional(P.Tol->Atol)}} : Json();
    Out["budget"] = P.Budget ? Json{{"time_s", optional(P.Budget->TimeSeconds)},
                                    {"evals", optional(P.Budget->Evals)},
                                    {"tokens", optional(P.Budget->Tokens)}}
                             : Json();
    Out["skills"] = P.Skills ? skills(*P.Skills) : Json();
    Out["noalias"] = P.NoAlias;
    if (P.FastMath) // Only where given, as instantiation below.
      Out["fastmath"] = true;
    Out["engine"] = P.Engine ? Json(spelling(*P.Engine).str()) : Json();
    if (P.Instantiation) // Only where given: keys of kernels without it stay as they were.
      Out["instantiation"] = *P.Instantiation;
    if (P.Repeat) // Only where given, as instantiation.
      Out["repeat"] = *P.Repeat;
    return Out;
  }

private:
  template <typename T> static Json optional(const std::optional<T> &V) {
    return V ? Json(*V) : Json();
  }

  Json expr(const ClauseExpr &E) const {
    Json Value;
    if (llvm::Expected<ClauseNumber> V = evaluateNumber(E, Args))
      Value = std::visit([](auto X) { return Json(X); }, *V);
    else
      llvm::consumeError(V.takeError());
    return {{"text", E.Text}, {"value", Value}};
  }

  Json exprs(const std::vector<ClauseExpr> &Es) const {
    Json Out = Json::array();
    for (const ClauseExpr &E : Es)
      Out.push_back(expr(E));
    return Out;
  }

  Json launch(const LaunchClause &L) const {
    return {{"grid", exprs(L.Grid)},
            {"block", exprs(L.Block)},
            {"smem", L.SharedMemory ? expr(*L.SharedMemory) : Json()}};
  }

  Json args(const std::vector<ArgValue> &As) const {
    Json Out = Json::object();
    for (const ArgValue &A : As)
      Out[A.Name] = expr(A.Value);
    return Out;
  }

  Json buffers(const std::vector<BufferSpec> &Bs) const {
    Json Out = Json::array();
    for (const BufferSpec &B : Bs) {
      Json Buffer = {{"name", B.Name},
                     {"size", expr(B.Size)},
                     {"access", B.Access ? Json(spelling(*B.Access).str()) : Json()}};
      // Only where given, as instantiation: keys of buffers without them stay as they were.
      if (B.Range)
        Buffer["range"] = {{"low", expr(B.Range->Low)}, {"high", expr(B.Range->High)}};
      if (B.Tol)
        Buffer["tol"] = {{"rtol", optional(B.Tol->Rtol)}, {"atol", optional(B.Tol->Atol)}};
      Out.push_back(std::move(Buffer));
    }
    return Out;
  }

  static Json skills(const std::vector<SkillToggle> &Ss) {
    Json Enable = Json::array(), Disable = Json::array();
    for (const SkillToggle &S : Ss)
      (S.Enabled ? Enable : Disable).push_back(S.Id);
    return {{"enable", Enable}, {"disable", Disable}};
  }

  const PragmaClauses &P;
  NumberBindings Args;
};

} // namespace

Json pragmaToJson(const PragmaClauses &P) { return PragmaWriter(P).write(); }

Json pragmaToJson(const std::optional<PragmaClauses> &P) { return P ? pragmaToJson(*P) : Json(); }

} // namespace kopt::frontend
