// A 2-D plot on an SvgWriter: the plot area, axes with ticks, tick labels and
// axis labels, a title, a legend beside the area, and markers whose shape and
// fill say as much as their colour (the plots stay readable in grey).
#pragma once

#include "report/PlotAxis.h"
#include "report/Svg.h"

#include <optional>
#include <string>
#include <vector>

namespace kopt::report {

enum class MarkerShape { Circle, Square, Triangle, Diamond, Cross };

struct Marker {
  MarkerShape Shape = MarkerShape::Circle;
  std::string Colour = "#000";
  bool Filled = true;
  double Size = 5; // Half the marker's width.
};

void drawMarker(SvgWriter &Svg, Point At, const Marker &M);

struct LegendEntry {
  std::string Label;
  std::optional<Marker> Symbol;
  std::optional<Stroke> Line;
};

struct PlotLayout {
  double Width = 604, Height = 340;
  double Left = 78, Top = 36, Bottom = 54;
  double LegendWidth = 205; // Right of the plot area.
  double Strip = 0;         // A band under the area for points without a value (its label).
  std::string StripLabel;
};

class Plot {
public:
  Plot(const PlotLayout &Layout, Axis X, Axis Y, const std::string &Title,
       const std::string &XLabel, const std::string &YLabel, const std::string &CssClass);

  // The pixel of data point (X, Y), and of X in the strip under the area.
  Point at(double X, double Y) const;
  Point inStrip(double X) const;
  double areaLeft() const { return L.Left; }
  double areaRight() const { return L.Width - L.LegendWidth; }
  double areaTop() const { return L.Top; }
  double areaBottom() const { return L.Height - L.Bottom - L.Strip; }

  // Grid lines, axes, ticks and labels; draw it before the data.
  void drawFrame();
  // Entries from the top of the legend column; returns the y below the last.
  double drawLegend(const std::vector<LegendEntry> &Entries, double Top);
  // A line of text in the legend column, wrapped to its width; returns the y below.
  double legendText(const std::string &Text, double Top, double Size = 11);
  SvgWriter &svg() { return Svg; }
  std::string finish() { return Svg.finish(); }

private:
  PlotLayout L;
  Axis X, Y;
  std::string XLabel, YLabel;
  SvgWriter Svg;
};

// Words of Text in lines of at most Width characters.
std::vector<std::string> wrapWords(const std::string &Text, size_t Width);

} // namespace kopt::report
