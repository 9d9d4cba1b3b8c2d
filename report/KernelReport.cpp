#include "report/KernelReport.h"

#include "report/ReportData.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

namespace kopt::report {

namespace {
using nlohmann::json;

// The key's canonical text: its inputs (every entry has them).
json keyText(const memory::CacheKey &Key) {
  json Text = json::parse(Key.Canonical, nullptr, /*allow_exceptions=*/false);
  return Text.is_object() ? Text : json();
}

// The pragma's clauses from the key's text.
json clausesOf(const memory::CacheKey &Key) {
  json Text = keyText(Key);
  if (!Text.contains("clauses") || !Text["clauses"].is_string())
    return json();
  json Clauses = json::parse(Text["clauses"].get<std::string>(), nullptr, false);
  return Clauses.is_object() ? Clauses : json();
}

// "(n + 15) / 16 = 128, (n + 15) / 16 = 128": each dimension's expression and
// value, the value alone where the text is it.
std::string dimsText(const json &Dims) {
  if (!Dims.is_array())
    return "";
  std::vector<std::string> Parts;
  for (const json &D : Dims) {
    std::string Text = D.value("text", "");
    std::string Value = D.contains("value") && D["value"].is_number_integer()
                            ? std::to_string(D["value"].get<int64_t>())
                            : "";
    Parts.push_back(Text == Value || Value.empty() ? Text : Text + " = " + Value);
  }
  return llvm::join(Parts, ", ");
}

std::optional<LaunchText> pragmaLaunch(const json &Clauses) {
  if (!Clauses.is_object() || !Clauses.contains("launch") || !Clauses["launch"].is_object())
    return std::nullopt;
  const json &L = Clauses["launch"];
  LaunchText T{dimsText(L.value("grid", json())), dimsText(L.value("block", json())), "0"};
  if (L.contains("smem") && L["smem"].is_object())
    T.Smem = dimsText(json::array({L["smem"]}));
  return T;
}

std::optional<double> number(const json &J, const char *Key) {
  if (!J.is_object() || !J.contains(Key) || !J[Key].is_number())
    return std::nullopt;
  return J[Key].get<double>();
}
} // namespace

std::string KernelReport::verificationText() const {
  std::vector<std::string> Parts;
  if (Seeds)
    Parts.push_back(std::to_string(*Seeds) + " input set" + (*Seeds == 1 ? "" : "s"));
  if (RecordedLaunches)
    Parts.push_back(std::to_string(*RecordedLaunches) + " recorded launch" +
                    (*RecordedLaunches == 1 ? "" : "es"));
  if (Rtol || Atol)
    Parts.push_back("tol rtol=" + (Rtol ? plainNumber(*Rtol) : "not recorded") +
                    " atol=" + (Atol ? plainNumber(*Atol) : "not recorded"));
  if (Parts.empty())
    return HasVariant ? "not recorded" : "-";
  return llvm::join(Parts, ", ");
}

KernelReport kernelReportOf(const memory::StoredEntry &Stored, const std::string &Cache) {
  const memory::CacheEntry &E = Stored.Entry;
  KernelReport R;
  R.Kernel = E.KernelName;
  R.Key = Stored.Key.Digest;
  R.Cache = Cache;
  R.Device = E.Origin.Device;
  R.Engine = E.Origin.Engine;
  R.Date = E.Origin.Date;
  R.Kind = E.KernelKind;
  R.Arch = keyText(Stored.Key).value("arch", "");
  R.HasVariant = E.Variant.has_value();
  R.Speedup = E.Variant ? E.Speedup : 1.0;
  if (E.Variant) {
    R.Chain = E.Origin.Skills;
    R.VariantCode = E.Variant->Code;
    if (E.Variant->Launch) {
      const frontend::LaunchMapping &M = *E.Variant->Launch;
      R.After = LaunchText{llvm::join(M.Grid, ", "), llvm::join(M.Block, ", "), M.SharedMem};
    }
  }
  if (E.Original) {
    if (!E.Original->File.empty())
      R.Location = E.Original->File + ":" + std::to_string(E.Original->Line);
    if (!E.Original->Definition.empty())
      R.OriginalDefinition = E.Original->Definition;
  }
  json Clauses = clausesOf(Stored.Key);
  R.Before = pragmaLaunch(Clauses);
  if (Clauses.is_object() && Clauses.contains("tol")) {
    R.Rtol = number(Clauses["tol"], "rtol");
    R.Atol = number(Clauses["tol"], "atol");
  }
  if (E.Verification.is_object()) {
    if (auto Seeds = number(E.Verification, "seeds"))
      R.Seeds = static_cast<unsigned>(*Seeds);
    R.WorstToleranceRatio = number(E.Verification, "worst_tolerance_ratio");
  }
  if (E.Workloads)
    R.RecordedLaunches = E.Workloads->VerifiedIds.size();
  if (E.Timing.is_object() && E.Timing.contains("evaluations")) {
    const json &Evals = E.Timing["evaluations"];
    if (auto Count = number(Evals, "count"))
      R.Evaluations = static_cast<unsigned>(*Count);
    R.Seconds = number(Evals, "loop_seconds");
  }
  R.Profile = E.Profile;
  R.Transforms = E.Transforms;
  if (E.Trajectory.is_array())
    for (const json &A : E.Trajectory) {
      std::vector<std::string> Steps;
      if (A.contains("steps") && A["steps"].is_array())
        for (const json &S : A["steps"])
          Steps.push_back(S.is_string() ? S.get<std::string>() : S.dump());
      R.Trajectory.push_back({llvm::join(Steps, " + "), A.value("verdict", ""),
                              number(A, "speedup").value_or(0), A.value("detail", "")});
    }
  return R;
}

KernelReport kernelReportOf(const BuildRecord &Record) {
  KernelReport R;
  R.Kernel = Record.Kernel;
  R.Key = Record.Key;
  R.Kind = Record.Kind;
  R.Arch = Record.Arch;
  R.Location = Record.Line ? Record.File + ":" + std::to_string(Record.Line) : "";
  R.Build = Record;
  return R;
}

} // namespace kopt::report
