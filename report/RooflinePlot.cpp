#include "report/RooflinePlot.h"

#include "report/Plot.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <cmath>

namespace kopt::report {

namespace {
const Marker OriginalMark{MarkerShape::Circle, "#222222", false, 6};
const Marker VariantMark{MarkerShape::Triangle, "#1b7837", true, 6};
const Stroke CopyRoof{"#2166ac", 2, ""}, DramPeakRoof{"#2166ac", 1.2, "6 3"},
    Fp32Roof{"#b35806", 2, ""}, Fp64Roof{"#b35806", 1.5, "8 3 2 3"}, Move{"#555", 1.2, "2 3"};

struct Roof {
  double GBs, Gflops;
  Stroke Line;
  std::string Label;
};

// The roof min(GBs x intensity, Gflops) across the X axis, where above Y's floor.
std::vector<Point> roofLine(const Plot &P, const Axis &X, const Axis &Y, double GBs,
                            double Gflops) {
  std::vector<Point> Out;
  const int Steps = 120;
  for (int I = 0; I <= Steps; ++I) {
    double Ai = X.lo() * std::pow(X.hi() / X.lo(), double(I) / Steps);
    double G = std::min(GBs * Ai, Gflops);
    if (G >= Y.lo() && G <= Y.hi())
      Out.push_back(P.at(Ai, G));
  }
  return Out;
}

std::string pct(const std::optional<double> &V) {
  return V ? llvm::formatv("{0:f0}%", *V).str() : "not recorded";
}

// Bars of DRAM and SM % of peak, original (hollow) and variant (filled), in
// the legend column from Top.
double shareBars(Plot &P, const KernelReport &K, double Top) {
  const memory::EntryProfile &Prof = *K.Profile;
  double X0 = P.areaRight() + 18, Y = Top;
  const double Full = 110;
  P.svg().text({X0, Y}, "% of the device's peak", Anchor::Start, 12, 0, "bold");
  Y += 8;
  auto Bars = [&](const char *Name, const std::optional<double> memory::RunFigures::*Field) {
    Y += 14;
    P.svg().text({X0, Y}, Name, Anchor::Start, 12);
    for (bool Variant : {false, true}) {
      if (Variant && !K.HasVariant)
        continue;
      const memory::RunFigures &F = Variant ? Prof.Variant : Prof.Original;
      const std::optional<double> &V = F.*Field;
      Y += 6;
      P.svg().rect({X0, Y}, Full, 10, "#f4f4f4", Stroke{"#bbb", 0.5, ""});
      if (V)
        P.svg().rect({X0, Y}, Full * std::clamp(*V, 0.0, 100.0) / 100, 10,
                     Variant ? VariantMark.Colour : "#fff",
                     Stroke{Variant ? VariantMark.Colour : "#222", 1.2, ""});
      P.svg().text({X0 + Full + 6, Y + 9}, (Variant ? "after " : "before ") + pct(V), Anchor::Start,
                   11);
      Y += 10;
    }
  };
  Bars("DRAM bandwidth", &memory::RunFigures::DramPct);
  Bars("SM throughput", &memory::RunFigures::SmPct);
  return Y + 8;
}

std::string messagePlot(const std::string &Title, const std::string &Message,
                        const KernelReport &K) {
  // With the original's profile, the shares of peak still say how close to
  // the hardware the kernel runs: they go beside the message.
  const bool Shares = K.Profile && K.Profile->Original.recorded();
  PlotLayout Layout;
  Layout.Height = Shares ? 220 : 120;
  Plot P(Layout, Axis::logarithmic(1, 10), Axis::logarithmic(1, 10), Title, "", "",
         "plot roofline");
  P.svg().rect({0, 0}, Layout.Width, Layout.Height, "#fff", Stroke{"#ccc", 1, ""});
  P.svg().text({16, 24}, Title, Anchor::Start, 14, 0, "bold");
  double Y = 56;
  for (const std::string &Line : wrapWords(Message, Shares ? 46 : 72)) {
    P.svg().text({16, Y}, Line, Anchor::Start, 13);
    Y += 18;
  }
  if (Shares)
    shareBars(P, K, 56);
  return P.finish();
}
} // namespace

std::string rooflinePlot(const KernelReport &K) {
  const std::string Title =
      K.Kernel + ": roofline on " +
      (K.Profile && !K.Profile->Device.Name.empty() ? K.Profile->Device.Name : K.Device);
  if (!K.Profile)
    return messagePlot(Title,
                       "Profile not recorded: the entry was written before kopt kept the "
                       "original's and the variant's hardware counters.",
                       K);
  const memory::EntryProfile &Prof = *K.Profile;
  if (!Prof.Original.recorded())
    return messagePlot(Title, "Profile not recorded: " + Prof.Original.NotRecorded + ".", K);
  const std::optional<double> Ai = Prof.Original.intensity(), G = Prof.Original.gflops();
  if (!Ai || !G || *Ai <= 0 || *G <= 0)
    return messagePlot(Title,
                       Prof.Original.Flops ? "No floating-point operations counted: the kernel "
                                             "has no point on a FLOP roofline."
                                           : "Floating-point operation counts not recorded (the "
                                             "profile of a long kernel reads throughputs only).",
                       K);
  const memory::DeviceRoofs &D = Prof.Device;
  std::vector<Roof> Roofs;
  const double Compute = D.Fp32PeakGflops.value_or(0);
  const bool Double = Prof.Original.Fp64Flops.value_or(0) > 0;
  // Where the device's FLOP peak is not known, the memory roofs run on unbounded.
  const double Unbounded = 1e12;
  // The copy rate's source (measured, or implied by the profile) is said under the plot.
  if (D.CopyGBs)
    Roofs.push_back({*D.CopyGBs, Compute > 0 ? Compute : Unbounded, CopyRoof,
                     llvm::formatv(llvm::StringRef(D.CopySource).starts_with("measured")
                                       ? "DRAM copy {0:f0} GB/s"
                                       : "DRAM {0:f0} GB/s (profile)",
                                   *D.CopyGBs)
                         .str()});
  if (D.DramPeakGBs)
    Roofs.push_back({*D.DramPeakGBs, Compute > 0 ? Compute : Unbounded, DramPeakRoof,
                     llvm::formatv("DRAM peak {0:f0} GB/s", *D.DramPeakGBs).str()});
  if (Compute > 0)
    Roofs.push_back(
        {Unbounded, Compute, Fp32Roof, llvm::formatv("FP32 peak {0:f0} GFLOP/s", Compute).str()});
  if (Double && D.Fp64PeakGflops)
    Roofs.push_back({Unbounded, *D.Fp64PeakGflops, Fp64Roof,
                     llvm::formatv("FP64 peak {0:f0} GFLOP/s", *D.Fp64PeakGflops).str()});

  std::vector<std::pair<double, double>> Points = {{*Ai, *G}};
  const std::optional<double> Ai2 = Prof.Variant.intensity(), G2 = Prof.Variant.gflops();
  const bool VariantPoint = K.HasVariant && Ai2 && G2 && *Ai2 > 0 && *G2 > 0;
  if (VariantPoint)
    Points.push_back({*Ai2, *G2});
  double XLo = 1e300, XHi = 0, YLo = 1e300, YHi = 0;
  for (auto [X, Y] : Points) {
    XLo = std::min(XLo, X / 4);
    XHi = std::max(XHi, X * 4);
    YLo = std::min(YLo, Y / 4);
    YHi = std::max(YHi, Y * 2);
  }
  for (const Roof &R : Roofs) {
    if (R.Gflops < Unbounded)
      YHi = std::max(YHi, R.Gflops * 1.5);
    if (R.GBs < Unbounded && R.Gflops < Unbounded)
      XHi = std::max(XHi, R.Gflops / R.GBs * 4); // The ridge in view.
  }
  PlotLayout Layout;
  Layout.Height = 380;
  Axis X = Axis::logarithmic(XLo, XHi), Y = Axis::logarithmic(YLo, YHi);
  Plot P(Layout, X, Y, Title, "arithmetic intensity (FLOP per DRAM byte, log)",
         "achieved GFLOP/s (log)", "plot roofline");
  P.drawFrame();
  std::vector<LegendEntry> Legend;
  for (const Roof &R : Roofs) {
    P.svg().polyline(roofLine(P, X, Y, R.GBs, R.Gflops), R.Line);
    Legend.push_back({R.Label, std::nullopt, R.Line});
  }
  Point O = P.at(*Ai, *G);
  auto Tip = [](const char *Who, double A, double Gf, const memory::RunFigures &F) {
    return llvm::formatv("{0}: {1:f3} FLOP/byte, {2:f1} GFLOP/s, DRAM {3}, SM {4}", Who, A, Gf,
                         pct(F.DramPct), pct(F.SmPct))
        .str();
  };
  if (VariantPoint) {
    Point V = P.at(*Ai2, *G2);
    P.svg().line(O, V, Move);
    P.svg().beginGroup(Tip("variant", *Ai2, *G2, Prof.Variant));
    drawMarker(P.svg(), V, VariantMark);
    P.svg().endGroup();
  }
  P.svg().beginGroup(Tip("original", *Ai, *G, Prof.Original));
  drawMarker(P.svg(), O, OriginalMark);
  P.svg().endGroup();
  Legend.push_back({"original", OriginalMark, std::nullopt});
  if (VariantPoint)
    Legend.push_back({"variant", VariantMark, std::nullopt});
  else if (K.HasVariant)
    Legend.push_back({"variant: profile not recorded (" + Prof.Variant.NotRecorded + ")",
                      std::nullopt, std::nullopt});
  double Below = P.drawLegend(Legend, P.areaTop() + 8);
  shareBars(P, K, Below + 10);
  return P.finish();
}

} // namespace kopt::report
