#include "report/Svg.h"

#include <llvm/Support/FormatVariadic.h>

#include <cmath>

namespace kopt::report {

std::string escapeXml(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string svgNumber(double V) {
  if (!std::isfinite(V))
    return "0";
  std::string S = llvm::formatv("{0:f2}", V).str();
  while (!S.empty() && S.back() == '0')
    S.pop_back();
  if (!S.empty() && S.back() == '.')
    S.pop_back();
  return S == "-0" ? "0" : S;
}

SvgWriter::SvgWriter(double Width, double Height, llvm::StringRef Title, llvm::StringRef CssClass) {
  Out = "<svg class=\"" + escapeXml(CssClass) + "\" width=\"" + svgNumber(Width) + "\" height=\"" +
        svgNumber(Height) + "\" viewBox=\"0 0 " + svgNumber(Width) + " " + svgNumber(Height) +
        "\" role=\"img\" aria-label=\"" + escapeXml(Title) + "\"><title>" + escapeXml(Title) +
        "</title>";
}

void SvgWriter::attrs(const Stroke &S) {
  Out += " stroke=\"" + escapeXml(S.Colour) + "\" stroke-width=\"" + svgNumber(S.Width) + "\"";
  if (!S.Dash.empty())
    Out += " stroke-dasharray=\"" + escapeXml(S.Dash) + "\"";
}

void SvgWriter::line(Point From, Point To, const Stroke &S) {
  Out += "<line x1=\"" + svgNumber(From.X) + "\" y1=\"" + svgNumber(From.Y) + "\" x2=\"" +
         svgNumber(To.X) + "\" y2=\"" + svgNumber(To.Y) + "\"";
  attrs(S);
  Out += "/>";
}

void SvgWriter::polyline(llvm::ArrayRef<Point> Points, const Stroke &S) {
  Out += "<polyline fill=\"none\" points=\"";
  for (const Point &P : Points)
    Out += svgNumber(P.X) + "," + svgNumber(P.Y) + " ";
  Out += "\"";
  attrs(S);
  Out += "/>";
}

void SvgWriter::rect(Point TopLeft, double Width, double Height, llvm::StringRef Fill,
                     const Stroke &S) {
  Out += "<rect x=\"" + svgNumber(TopLeft.X) + "\" y=\"" + svgNumber(TopLeft.Y) + "\" width=\"" +
         svgNumber(Width) + "\" height=\"" + svgNumber(Height) + "\" fill=\"" + escapeXml(Fill) +
         "\"";
  attrs(S);
  Out += "/>";
}

void SvgWriter::circle(Point Centre, double Radius, llvm::StringRef Fill, const Stroke &S) {
  Out += "<circle cx=\"" + svgNumber(Centre.X) + "\" cy=\"" + svgNumber(Centre.Y) + "\" r=\"" +
         svgNumber(Radius) + "\" fill=\"" + escapeXml(Fill) + "\"";
  attrs(S);
  Out += "/>";
}

void SvgWriter::polygon(llvm::ArrayRef<Point> Points, llvm::StringRef Fill, const Stroke &S) {
  Out += "<polygon points=\"";
  for (const Point &P : Points)
    Out += svgNumber(P.X) + "," + svgNumber(P.Y) + " ";
  Out += "\" fill=\"" + escapeXml(Fill) + "\"";
  attrs(S);
  Out += "/>";
}

void SvgWriter::text(Point At, llvm::StringRef Content, Anchor A, double Size, double Rotate,
                     llvm::StringRef Weight) {
  static const char *const Anchors[] = {"start", "middle", "end"};
  // Appended piece by piece: one long chain of temporaries trips GCC 12's -Wrestrict.
  Out += "<text x=\"";
  Out += svgNumber(At.X);
  Out += "\" y=\"";
  Out += svgNumber(At.Y);
  Out += "\" font-size=\"";
  Out += svgNumber(Size);
  Out += "\" text-anchor=\"";
  Out += Anchors[static_cast<int>(A)];
  Out += "\"";
  if (Weight != "normal") {
    Out += " font-weight=\"";
    Out += escapeXml(Weight);
    Out += "\"";
  }
  if (Rotate != 0) {
    Out += " transform=\"rotate(";
    Out += svgNumber(Rotate) + " " + svgNumber(At.X) + " " + svgNumber(At.Y);
    Out += ")\"";
  }
  Out += ">";
  Out += escapeXml(Content);
  Out += "</text>";
}

void SvgWriter::beginGroup(llvm::StringRef Tooltip) {
  Out += "<g><title>" + escapeXml(Tooltip) + "</title>";
}

void SvgWriter::endGroup() { Out += "</g>"; }

std::string SvgWriter::finish() { return Out + "</svg>"; }

} // namespace kopt::report
