// A small SVG writer for the report's plots: elements with attributes, text
// escaped, numbers printed short. Inline SVG in HTML needs no namespace URL,
// so the page refers to nothing outside itself.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <string>
#include <utility>
#include <vector>

namespace kopt::report {

// Text for HTML or SVG content and attribute values: & < > " ' escaped.
std::string escapeXml(llvm::StringRef Text);

// "12.5", "3", "0.25": a coordinate or length with at most two decimals.
std::string svgNumber(double V);

struct Point {
  double X = 0, Y = 0;
};

// How a line or a marker's outline is drawn: a colour (readable in grey too:
// plots pair it with a dash pattern or a marker shape), a width and a dash
// pattern ("" : solid).
struct Stroke {
  std::string Colour = "#000";
  double Width = 1;
  std::string Dash;
};

enum class Anchor { Start, Middle, End };

class SvgWriter {
public:
  // Width x Height pixels; Title is what a screen reader says of the plot.
  SvgWriter(double Width, double Height, llvm::StringRef Title, llvm::StringRef CssClass);

  void line(Point From, Point To, const Stroke &S);
  void polyline(llvm::ArrayRef<Point> Points, const Stroke &S);
  void rect(Point TopLeft, double Width, double Height, llvm::StringRef Fill, const Stroke &S);
  void circle(Point Centre, double Radius, llvm::StringRef Fill, const Stroke &S);
  void polygon(llvm::ArrayRef<Point> Points, llvm::StringRef Fill, const Stroke &S);
  // Text at At (its baseline); Rotate: degrees about At.
  void text(Point At, llvm::StringRef Content, Anchor A = Anchor::Start, double Size = 12,
            double Rotate = 0, llvm::StringRef Weight = "normal");
  // A hover tooltip on the next element drawn.
  void beginGroup(llvm::StringRef Tooltip);
  void endGroup();

  // The document: <svg ...>...</svg>.
  std::string finish();

private:
  void attrs(const Stroke &S);
  std::string Out;
};

} // namespace kopt::report
