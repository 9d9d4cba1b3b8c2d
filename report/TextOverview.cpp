#include "report/TextOverview.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace kopt::report {

std::string renderText(const ReportData &R) {
  std::vector<std::string> Heads = {"kernel",  "where",  "kind", "speedup",      "evaluations",
                                    "seconds", "DRAM %", "SM %", "winning chain"};
  if (R.FromBuild)
    Heads.push_back("this build");
  std::vector<std::vector<std::string>> Rows;
  for (const KernelReport &K : R.Kernels) {
    Rows.push_back({K.Kernel, K.Location.empty() ? "not recorded" : K.Location,
                    K.Kind.empty() ? "not recorded" : K.Kind, speedupText(K), evaluationsText(K),
                    secondsText(K), peakShareText(K, &memory::RunFigures::DramPct),
                    peakShareText(K, &memory::RunFigures::SmPct), chainText(K)});
    if (R.FromBuild)
      Rows.back().push_back(buildText(K));
  }
  std::vector<size_t> Width(Heads.size());
  for (size_t C = 0; C < Heads.size(); ++C) {
    Width[C] = Heads[C].size();
    for (const auto &Row : Rows)
      Width[C] = std::max(Width[C], Row[C].size());
  }
  std::string Out;
  auto Line = [&](const std::vector<std::string> &Cells) {
    std::string L;
    llvm::raw_string_ostream OS(L);
    for (size_t C = 0; C + 1 < Cells.size(); ++C)
      OS << llvm::left_justify(Cells[C], unsigned(Width[C] + 2));
    OS << Cells.back();
    Out += llvm::StringRef(L).rtrim();
    Out += '\n';
  };
  Line(Heads);
  for (const auto &Row : Rows)
    Line(Row);
  Totals T = totalsOf(R);
  Out += llvm::formatv("\n{0} kernel{1}, {2} with a verified variant", T.Kernels,
                       T.Kernels == 1 ? "" : "s", T.WithVariant);
  if (T.Geomean)
    Out += llvm::formatv("; geomean {0:f2}x", *T.Geomean);
  if (!T.SecondsRecorded)
    Out += "; time spent optimizing not recorded";
  else
    Out += llvm::formatv("; {0:f1} s optimizing", T.Seconds);
  if (T.SecondsRecorded && T.SecondsRecorded < T.Kernels)
    Out += llvm::formatv(" (not recorded for {0})", T.Kernels - T.SecondsRecorded);
  Out += "\n";
  if (R.FromBuild) {
    std::vector<std::string> Parts;
    for (const auto &[Outcome, Count] : T.Outcomes)
      Parts.push_back(std::to_string(Count) + " " + Outcome);
    Out += "this build: " +
           (Parts.empty() ? std::string("no kernel looked up") : llvm::join(Parts, ", ")) + "\n";
    for (const auto &[Why, Count] : T.MissReasons)
      Out += llvm::formatv("  missed: {0} kernel{1}: {2}\n", Count, Count == 1 ? "" : "s", Why);
  }
  for (const std::string &P : R.Problems)
    Out += "not read: " + P + "\n";
  return Out;
}

} // namespace kopt::report
