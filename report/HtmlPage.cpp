#include "report/HtmlPage.h"

#include "report/LineDiff.h"
#include "report/RooflinePlot.h"
#include "report/Svg.h"
#include "report/TrajectoryPlot.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

namespace kopt::report {

namespace {
const char *const Style = R"css(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 20px 20px;
       color: #1a1a1a; background: #fafafa; line-height: 1.4; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 6px; border-bottom: 2px solid #ccc; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.meta { color: #555; font-size: 13px; }
table { border-collapse: collapse; font-size: 13px; background: #fff; }
#overview { width: 100%; }
#overview td.chain { overflow-wrap: anywhere; min-width: 14em; }
details summary { cursor: pointer; }
th, td { border: 1px solid #d0d0d0; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eceff3; }
table.sortable th { cursor: pointer; user-select: none; }
#overview { font-size: 12.5px; }
table.sortable th::after { content: " \2195"; color: #999; }
table.sortable th[data-dir="asc"]::after { content: " \2191"; color: #333; }
table.sortable th[data-dir="desc"]::after { content: " \2193"; color: #333; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.totals { margin: 12px 0 18px; font-size: 14px; }
.totals td:first-child { font-weight: 600; }
.summary { font-size: 15px; margin: 6px 0 10px; }
.plots { display: flex; flex-wrap: wrap; gap: 16px; }
svg.plot { background: #fff; border: 1px solid #ccc; font-family: system-ui, sans-serif; }
pre { background: #fff; border: 1px solid #d0d0d0; padding: 8px; font-size: 12px; overflow-x: auto;
      max-height: 560px; }
pre .add { background: #e6f4ea; display: block; }
pre .del { background: #fbe9eb; display: block; }
pre .skip { color: #777; display: block; font-style: italic; }
.not-recorded { color: #777; font-style: italic; }
.problems { color: #8a1c1c; }
)css";

// Sorts the overview's rows by the clicked column: numbers where the cells
// carry data-sort values, text otherwise; cells without a value go last.
const char *const SortScript = R"js(
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, column) {
    th.addEventListener("click", function () {
      var dir = th.dataset.dir === "asc" ? "desc" : "asc";
      table.querySelectorAll("th").forEach(function (h) { delete h.dataset.dir; });
      th.dataset.dir = dir;
      var body = table.tBodies[0];
      var key = function (row) {
        var cell = row.cells[column];
        var v = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
        var n = parseFloat(v);
        return v === "" ? null : (isNaN(n) || cell.dataset.sort === undefined ? v : n);
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === null || y === null) return x === y ? 0 : (x === null ? 1 : -1);
        var c = (typeof x === "number" && typeof y === "number") ? x - y
                : String(x).localeCompare(String(y));
        return dir === "asc" ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
)js";

std::string esc(llvm::StringRef S) { return escapeXml(S); }

// A cell; "not recorded" in grey italics. Sort: the value to sort by ("" : last).
std::string cell(const std::string &Text, const std::string &Sort = "", bool Numeric = false,
                 bool HasSort = false) {
  std::string Out = "<td";
  if (Numeric)
    Out += " class=\"num\"";
  if (HasSort)
    Out += " data-sort=\"" + esc(Sort) + "\"";
  Out += ">";
  if (llvm::StringRef(Text).starts_with("not recorded"))
    Out += "<span class=\"not-recorded\">" + esc(Text) + "</span>";
  else
    Out += esc(Text);
  return Out + "</td>";
}

std::string number(const std::optional<double> &V) { return V ? plainNumber(*V) : ""; }

std::string anchorOf(size_t Index) { return "kernel-" + std::to_string(Index); }

std::string overview(const ReportData &R) {
  std::string Out = "<table class=\"sortable\" id=\"overview\"><thead><tr>";
  std::vector<std::string> Heads = {
      "kernel",       "where",       "kind",    "device",         "winning chain", "speedup",
      "verification", "evaluations", "seconds", "DRAM % of peak", "SM % of peak"};
  if (R.FromBuild)
    Heads.push_back("this build");
  for (const std::string &H : Heads)
    Out += "<th>" + esc(H) + "</th>";
  Out += "</tr></thead><tbody>\n";
  for (size_t I = 0; I < R.Kernels.size(); ++I) {
    const KernelReport &K = R.Kernels[I];
    Out += "<tr class=\"kernel-row\">";
    Out += "<td><a href=\"#" + anchorOf(I) + "\">" + esc(K.Kernel) + "</a></td>";
    Out += cell(K.Location.empty() ? "not recorded" : K.Location);
    Out += cell(K.Kind.empty() ? "not recorded" : K.Kind);
    Out += cell(K.Device.empty() ? "-" : K.Device);
    Out += "<td class=\"chain\">" + esc(chainText(K)) + "</td>";
    Out += cell(speedupText(K), K.Device.empty() ? "" : number(K.HasVariant ? K.Speedup : 1.0),
                true, true);
    Out += cell(K.verificationText());
    Out +=
        cell(evaluationsText(K), K.Evaluations ? std::to_string(*K.Evaluations) : "", true, true);
    Out += cell(secondsText(K), number(K.Seconds), true, true);
    for (auto Field : {&memory::RunFigures::DramPct, &memory::RunFigures::SmPct}) {
      std::optional<double> Sort;
      if (K.Profile)
        Sort = K.HasVariant ? K.Profile->Variant.*Field : K.Profile->Original.*Field;
      Out += cell(peakShareText(K, Field), number(Sort), true, true);
    }
    if (R.FromBuild)
      Out += cell(buildText(K));
    Out += "</tr>\n";
  }
  return Out + "</tbody></table>\n";
}

std::string totals(const ReportData &R) {
  Totals T = totalsOf(R);
  std::string Out = "<table class=\"totals\"><tbody>";
  auto Row = [&](const std::string &Name, const std::string &Value) {
    Out += "<tr><td>" + esc(Name) + "</td><td>" + esc(Value) + "</td></tr>\n";
  };
  Row("kernels", llvm::formatv("{0}, {1} with a verified variant", T.Kernels, T.WithVariant));
  Row("geomean speedup", T.Geomean ? llvm::formatv("{0:f2}x", *T.Geomean).str() : "-");
  std::string Spent = llvm::formatv("{0:f1} s over {1} kernel{2}", T.Seconds, T.SecondsRecorded,
                                    T.SecondsRecorded == 1 ? "" : "s")
                          .str();
  if (T.SecondsRecorded < T.Kernels)
    Spent += llvm::formatv(" (not recorded for {0})", T.Kernels - T.SecondsRecorded).str();
  Row("time spent optimizing", T.SecondsRecorded ? Spent : "not recorded");
  if (R.FromBuild) {
    std::vector<std::string> Parts;
    for (const auto &[Outcome, Count] : T.Outcomes)
      Parts.push_back(std::to_string(Count) + " " + Outcome);
    Row("this build", Parts.empty() ? "no kernel looked up" : llvm::join(Parts, ", "));
    for (const auto &[Why, Count] : T.MissReasons)
      Row("  missed", llvm::formatv("{0} kernel{1}: {2}", Count, Count == 1 ? "" : "s", Why));
  }
  return Out + "</tbody></table>";
}

std::string launchTable(const KernelReport &K) {
  if (!K.Before && !K.After)
    return "<p class=\"not-recorded\">launch not recorded</p>";
  std::string Out = "<table><thead><tr><th></th><th>grid</th><th>block</th><th>shared "
                    "bytes</th></tr></thead><tbody>";
  auto Row = [&](const char *Name, const LaunchText &L) {
    Out += "<tr><td>" + std::string(Name) + "</td><td><code>" + esc(L.Grid) +
           "</code></td><td><code>" + esc(L.Block) + "</code></td><td><code>" + esc(L.Smem) +
           "</code></td></tr>";
  };
  if (K.Before)
    Row("original (the pragma's)", *K.Before);
  if (K.After)
    Row("variant (from the original's grid_*, block_*, smem)", *K.After);
  Out += "</tbody></table>";
  if (K.HasVariant && !K.After)
    Out += "<p>The variant keeps the original's launch.</p>";
  return Out;
}

// Each distinct chain the search evaluated, for entries without transform notes.
std::string stepsEvaluated(const KernelReport &K) {
  std::vector<std::string> Steps;
  for (const TrajectoryPoint &P : K.Trajectory)
    if (!llvm::is_contained(Steps, P.Steps))
      Steps.push_back(P.Steps);
  if (Steps.empty())
    return "";
  std::string Out =
      "<details><summary>" + std::to_string(Steps.size()) + " chains evaluated</summary><ul>";
  for (const std::string &S : Steps)
    Out += "<li><code>" + esc(S) + "</code></li>";
  return Out + "</ul></details>";
}

std::string transformsSection(const KernelReport &K) {
  if (!K.Transforms)
    return "<p class=\"not-recorded\">Why other transforms were not tried is not recorded (" +
           std::string(K.Engine == "llm" ? "the llm engine plans its own steps"
                                         : "the entry predates it") +
           ").</p>" + stepsEvaluated(K);
  std::string Tried, Rows;
  for (const memory::TransformNote &N : *K.Transforms) {
    if (N.Status == "tried")
      Tried += (Tried.empty() ? "" : ", ") + esc(N.Id);
    else
      Rows += "<tr><td>" + esc(N.Id) + "</td><td>" + esc(N.Status) + "</td><td>" + esc(N.Why) +
              "</td></tr>";
  }
  std::string Out = "<p><b>Tried:</b> " + (Tried.empty() ? std::string("none") : Tried) + "</p>";
  if (!Rows.empty())
    Out += "<table><thead><tr><th>transform</th><th>status</th><th>why</th></tr></thead><tbody>" +
           Rows + "</tbody></table>";
  return Out;
}

std::string diffSection(const KernelReport &K) {
  if (!K.VariantCode)
    return "<p>No variant: the original is compiled as written.</p>";
  if (!K.OriginalDefinition)
    return "<p class=\"not-recorded\">The original's source not recorded (the entry predates "
           "it): the variant alone.</p><pre>" +
           esc(*K.VariantCode) + "</pre>";
  std::vector<DiffLine> Lines = diffLines(*K.OriginalDefinition, *K.VariantCode);
  size_t Added = 0, Removed = 0;
  for (const DiffLine &L : Lines) {
    Added += L.Op == DiffOp::Added;
    Removed += L.Op == DiffOp::Removed;
  }
  std::string Out =
      llvm::formatv("<p>{0} lines added, {1} removed.</p><pre class=\"diff\">", Added, Removed)
          .str();
  for (const DiffHunk &H : diffHunks(Lines, 3)) {
    const DiffLine &First = H.Lines.front();
    Out += llvm::formatv("<span class=\"skip\">@@ original line {0}, variant line {1} @@</span>",
                         First.OldLine ? First.OldLine : First.NewLine,
                         First.NewLine ? First.NewLine : First.OldLine)
               .str();
    for (const DiffLine &L : H.Lines) {
      const char *Class = L.Op == DiffOp::Added ? "add" : L.Op == DiffOp::Removed ? "del" : "";
      const char *Mark = L.Op == DiffOp::Added ? "+ " : L.Op == DiffOp::Removed ? "- " : "  ";
      std::string Text = Mark + esc(L.Text);
      Out +=
          *Class ? "<span class=\"" + std::string(Class) + "\">" + Text + "</span>" : Text + "\n";
    }
  }
  return Out + "</pre>";
}

std::string kernelSection(const KernelReport &K, size_t Index) {
  std::string Out = "\n<section class=\"kernel\" id=\"" + anchorOf(Index) + "\">";
  Out += "<h2>" + esc(K.Kernel) +
         (K.Location.empty() ? "" : " <span class=\"meta\">" + esc(K.Location) + "</span>") +
         "</h2>";
  Out += "<p class=\"summary\">" + esc(outcomeText(K)) + "</p>";
  if (K.Profile)
    Out += "<p>" + esc(memory::describePeakShares(*K.Profile, K.HasVariant)) + "</p>";
  if (K.Profile && !K.Profile->Device.CopySource.empty())
    Out += "<p class=\"meta\">Copy rate: " + esc(K.Profile->Device.CopySource) + ".</p>";
  std::vector<std::string> Meta;
  if (!K.Key.empty())
    Meta.push_back("key " + K.Key.substr(0, 16));
  if (!K.Cache.empty())
    Meta.push_back(K.Cache);
  if (!K.Engine.empty())
    Meta.push_back("engine " + K.Engine);
  if (!K.Date.empty())
    Meta.push_back(K.Date);
  if (K.Build)
    Meta.push_back("this build: " + buildText(K) +
                   (K.Build->Detail.empty() ? "" : " (" + K.Build->Detail + ")"));
  Out += "<p class=\"meta\">" + esc(llvm::join(Meta, " · ")) + "</p>";
  if (K.Device.empty())
    return Out + "</section>";
  Out += "\n<div class=\"plots\">\n" + trajectoryPlot(K) + "\n" + rooflinePlot(K) + "\n</div>\n";
  Out += "<h3>Launch</h3>" + launchTable(K);
  Out += "\n<h3>Transforms</h3>" + transformsSection(K);
  Out += "\n<h3>The variant against the original</h3>" + diffSection(K);
  return Out + "</section>\n";
}
} // namespace

std::string renderHtml(const ReportData &R) {
  std::string Out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>kopt report</title><style>";
  Out += Style;
  Out += "</style></head><body>";
  Out += "<h1>kopt report</h1><p class=\"meta\">" +
         esc(llvm::formatv("{0} kernel{1} from {2}; made {3}", R.Kernels.size(),
                           R.Kernels.size() == 1 ? "" : "s",
                           R.Sources.empty() ? std::string("nothing") : llvm::join(R.Sources, ", "),
                           R.Date)
                 .str()) +
         "</p>";
  Out += totals(R);
  Out += overview(R);
  if (!R.Problems.empty()) {
    Out += "<h3 class=\"problems\">Not read</h3><ul class=\"problems\">";
    for (const std::string &P : R.Problems)
      Out += "<li>" + esc(P) + "</li>";
    Out += "</ul>";
  }
  for (size_t I = 0; I < R.Kernels.size(); ++I)
    Out += kernelSection(R.Kernels[I], I);
  Out += "<script>";
  Out += SortScript;
  Out += "</script></body></html>\n";
  return Out;
}

} // namespace kopt::report
