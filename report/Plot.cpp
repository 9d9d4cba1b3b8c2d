#include "report/Plot.h"

#include <llvm/ADT/StringRef.h>

namespace kopt::report {

namespace {
const Stroke GridLine{"#e2e2e2", 1, ""};
const Stroke AxisLine{"#333", 1, ""};
constexpr double TickLength = 5, LabelSize = 12, LegendSize = 11.5, LegendRow = 20;
} // namespace

void drawMarker(SvgWriter &Svg, Point P, const Marker &M) {
  const double S = M.Size;
  const std::string Fill = M.Filled ? M.Colour : "#fff";
  const Stroke Outline{M.Colour, 1.5, ""};
  switch (M.Shape) {
  case MarkerShape::Circle:
    Svg.circle(P, S, Fill, Outline);
    break;
  case MarkerShape::Square:
    Svg.rect({P.X - S, P.Y - S}, 2 * S, 2 * S, Fill, Outline);
    break;
  case MarkerShape::Triangle:
    Svg.polygon(
        {{P.X, P.Y - S * 1.15}, {P.X + S * 1.1, P.Y + S * 0.85}, {P.X - S * 1.1, P.Y + S * 0.85}},
        Fill, Outline);
    break;
  case MarkerShape::Diamond:
    Svg.polygon({{P.X, P.Y - S * 1.3}, {P.X + S, P.Y}, {P.X, P.Y + S * 1.3}, {P.X - S, P.Y}}, Fill,
                Outline);
    break;
  case MarkerShape::Cross: {
    const Stroke Bar{M.Colour, 2.2, ""};
    Svg.line({P.X - S, P.Y - S}, {P.X + S, P.Y + S}, Bar);
    Svg.line({P.X - S, P.Y + S}, {P.X + S, P.Y - S}, Bar);
    break;
  }
  }
}

Plot::Plot(const PlotLayout &Layout, Axis XAxis, Axis YAxis, const std::string &Title,
           const std::string &XText, const std::string &YText, const std::string &CssClass)
    : L(Layout), X(XAxis), Y(YAxis), XLabel(XText), YLabel(YText),
      Svg(Layout.Width, Layout.Height, Title, CssClass) {
  Svg.rect({0, 0}, L.Width, L.Height, "#fff", Stroke{"#fff", 0, ""});
  Svg.text({L.Left, 20}, Title, Anchor::Start, 14, 0, "bold");
}

Point Plot::at(double XV, double YV) const {
  return {areaLeft() + X.fraction(XV) * (areaRight() - areaLeft()),
          areaBottom() - Y.fraction(YV) * (areaBottom() - areaTop())};
}

Point Plot::inStrip(double XV) const { return {at(XV, Y.lo()).X, areaBottom() + L.Strip / 2}; }

void Plot::drawFrame() {
  const double Left = areaLeft(), Right = areaRight(), Top = areaTop(), Bottom = areaBottom();
  const double AxisY = Bottom + L.Strip;
  for (const Tick &T : Y.ticks()) {
    double Py = at(X.lo(), T.Value).Y;
    Svg.line({Left, Py}, {Right, Py}, GridLine);
    Svg.line({Left - (T.Label.empty() ? TickLength / 2 : TickLength), Py}, {Left, Py}, AxisLine);
    if (!T.Label.empty())
      Svg.text({Left - TickLength - 3, Py + 4}, T.Label, Anchor::End, LabelSize);
  }
  for (const Tick &T : X.ticks()) {
    double Px = at(T.Value, Y.lo()).X;
    Svg.line({Px, Top}, {Px, Bottom}, GridLine);
    Svg.line({Px, AxisY}, {Px, AxisY + (T.Label.empty() ? TickLength / 2 : TickLength)}, AxisLine);
    if (!T.Label.empty())
      Svg.text({Px, AxisY + TickLength + 13}, T.Label, Anchor::Middle, LabelSize);
  }
  if (L.Strip > 0) { // The band for points without a value, set off by a dashed line.
    Svg.line({Left, Bottom}, {Right, Bottom}, Stroke{"#999", 1, "3 3"});
    Svg.text({Left - TickLength - 3, Bottom + L.Strip / 2 + 6}, L.StripLabel, Anchor::End,
             LabelSize - 1);
  }
  Svg.line({Left, Top}, {Left, AxisY}, AxisLine);
  Svg.line({Left, AxisY}, {Right, AxisY}, AxisLine);
  Svg.text({(Left + Right) / 2, L.Height - 10}, XLabel, Anchor::Middle, LabelSize + 1);
  Svg.text({18, (Top + AxisY) / 2}, YLabel, Anchor::Middle, LabelSize + 1, -90);
}

double Plot::drawLegend(const std::vector<LegendEntry> &Entries, double Top) {
  const double X0 = areaRight() + 18;
  double Yp = Top;
  for (const LegendEntry &E : Entries) {
    if (E.Line)
      Svg.line({X0, Yp}, {X0 + 26, Yp}, *E.Line);
    if (E.Symbol)
      drawMarker(Svg, {X0 + 13, Yp}, *E.Symbol);
    std::vector<std::string> Lines = wrapWords(E.Label, 23);
    for (size_t I = 0; I < Lines.size(); ++I)
      Svg.text({X0 + 34, Yp + 4 + double(I) * 14}, Lines[I], Anchor::Start, LegendSize);
    Yp += LegendRow + double(Lines.size() - 1) * 14;
  }
  return Yp;
}

double Plot::legendText(const std::string &Text, double Top, double Size) {
  const double X0 = areaRight() + 18;
  double Yp = Top;
  for (const std::string &Line : wrapWords(Text, 28)) {
    Svg.text({X0, Yp}, Line, Anchor::Start, Size);
    Yp += Size + 3;
  }
  return Yp;
}

std::vector<std::string> wrapWords(const std::string &Text, size_t Width) {
  std::vector<std::string> Lines;
  std::string Line;
  llvm::SmallVector<llvm::StringRef, 16> Words;
  llvm::StringRef(Text).split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef W : Words) {
    if (!Line.empty() && Line.size() + 1 + W.size() > Width) {
      Lines.push_back(Line);
      Line.clear();
    }
    if (!Line.empty())
      Line += ' ';
    Line += W;
  }
  if (!Line.empty() || Lines.empty())
    Lines.push_back(Line);
  return Lines;
}

} // namespace kopt::report
