#include "report/TrajectoryPlot.h"

#include "report/Plot.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <map>

namespace kopt::report {

namespace {
struct VerdictStyle {
  const char *Label;
  Marker Symbol;
};

// Each verdict by shape and fill as well as colour.
VerdictStyle styleOf(llvm::StringRef Verdict) {
  if (Verdict == "faster")
    return {"faster", {MarkerShape::Circle, "#1b7837", true, 5}};
  if (Verdict == "not_faster" || Verdict == "promising")
    return {"not faster", {MarkerShape::Square, "#d95f02", false, 4.5}};
  if (Verdict == "wrong")
    return {"wrong result", {MarkerShape::Cross, "#b2182b", true, 4.5}};
  if (Verdict == "compile_error")
    return {"did not compile", {MarkerShape::Triangle, "#5e3c99", false, 5}};
  return {"failed to run", {MarkerShape::Diamond, "#444444", true, 5}};
}

const char *const LegendOrder[] = {"faster", "not_faster", "wrong", "compile_error", "crashed"};

bool timed(const TrajectoryPoint &P) {
  return P.Speedup > 0 &&
         (P.Verdict == "faster" || P.Verdict == "not_faster" || P.Verdict == "promising");
}

std::string emptyPlot(const std::string &Title, const std::string &Message) {
  const PlotLayout Layout;
  SvgWriter Svg(Layout.Width, 120, Title, "plot trajectory");
  Svg.rect({0, 0}, Layout.Width, 120, "#fff", Stroke{"#ccc", 1, ""});
  Svg.text({16, 24}, Title, Anchor::Start, 14, 0, "bold");
  Svg.text({16, 64}, Message, Anchor::Start, 13);
  return Svg.finish();
}
} // namespace

std::string trajectoryPlot(const KernelReport &K) {
  const std::string Title = K.Kernel + ": speedup of each variant tried";
  if (K.Trajectory.empty())
    return emptyPlot(Title, "No variant was evaluated (the entry's trajectory is empty).");
  double Lo = 1, Hi = std::max(1.0, K.Speedup);
  bool Untimed = false;
  for (const TrajectoryPoint &P : K.Trajectory) {
    if (timed(P)) {
      Lo = std::min(Lo, P.Speedup);
      Hi = std::max(Hi, P.Speedup);
    } else {
      Untimed = true;
    }
  }
  PlotLayout Layout;
  if (Untimed) {
    Layout.Strip = 28;
    Layout.StripLabel = "untimed";
  }
  const double N = static_cast<double>(K.Trajectory.size());
  Plot P(Layout, Axis::integers(0, N), Axis::logarithmic(Lo / 1.1, Hi * 1.1), Title,
         "variant, in the order evaluated", "speedup over the original (x, log scale)",
         "plot trajectory");
  P.drawFrame();
  const Stroke OneX{"#777", 1.2, "4 4"}, BestLine{"#2166ac", 2, ""};
  P.svg().line(P.at(0, 1), P.at(N, 1), OneX);
  // The best verified speedup so far: a step up at each new best.
  std::vector<Point> Best = {P.at(0, 1)};
  double SoFar = 1;
  for (size_t I = 0; I < K.Trajectory.size(); ++I) {
    const TrajectoryPoint &T = K.Trajectory[I];
    if (T.Verdict == "faster" && T.Speedup > SoFar) {
      Best.push_back(P.at(double(I + 1), SoFar));
      SoFar = T.Speedup;
      Best.push_back(P.at(double(I + 1), SoFar));
    }
  }
  Best.push_back(P.at(N, SoFar));
  P.svg().polyline(Best, BestLine);
  std::map<std::string, bool> Seen;
  for (size_t I = 0; I < K.Trajectory.size(); ++I) {
    const TrajectoryPoint &T = K.Trajectory[I];
    VerdictStyle S = styleOf(T.Verdict);
    Seen[S.Label] = true;
    std::string Tip = llvm::formatv("#{0} {1}: {2}", I + 1, T.Steps, S.Label).str();
    if (timed(T))
      Tip += llvm::formatv(" ({0:f2}x)", T.Speedup).str();
    if (!T.Detail.empty())
      Tip += " - " + T.Detail;
    P.svg().beginGroup(Tip);
    drawMarker(P.svg(), timed(T) ? P.at(double(I + 1), T.Speedup) : P.inStrip(double(I + 1)),
               S.Symbol);
    P.svg().endGroup();
  }
  std::vector<LegendEntry> Legend;
  for (const char *V : LegendOrder) {
    VerdictStyle S = styleOf(V);
    if (Seen.count(S.Label))
      Legend.push_back({S.Label, S.Symbol, std::nullopt});
  }
  Legend.push_back({llvm::formatv("best so far ({0:f2}x)", SoFar).str(), std::nullopt, BestLine});
  Legend.push_back({"the original (1x)", std::nullopt, OneX});
  double Below = P.drawLegend(Legend, P.areaTop() + 8);
  P.legendText(llvm::formatv("{0} variants tried", K.Trajectory.size()).str(), Below + 8);
  return P.finish();
}

} // namespace kopt::report
