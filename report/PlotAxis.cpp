#include "report/PlotAxis.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <cmath>

namespace kopt::report {

namespace {
// The smallest of 1, 2, 5 times a power of ten that is >= V (V > 0).
double roundUp125(double V) {
  double Decade = std::pow(10.0, std::floor(std::log10(V)));
  for (double M : {1.0, 2.0, 5.0, 10.0})
    if (M * Decade >= V * (1 - 1e-9))
      return M * Decade;
  return 10 * Decade;
}

// The largest of 1, 2, 5 times a power of ten that is <= V (V > 0).
double roundDown125(double V) {
  double Decade = std::pow(10.0, std::floor(std::log10(V)));
  for (double M : {5.0, 2.0, 1.0})
    if (M * Decade <= V * (1 + 1e-9))
      return M * Decade;
  return Decade / 2;
}

std::string trimmed(std::string S) {
  if (S.find('.') != std::string::npos) {
    while (S.back() == '0')
      S.pop_back();
    if (S.back() == '.')
      S.pop_back();
  }
  return S;
}
} // namespace

Axis Axis::linear(double Lo, double Hi) {
  if (!(Hi > Lo)) {
    double Pad = std::max(std::abs(Lo) * 0.5, 1.0);
    Lo -= Pad;
    Hi += Pad;
  }
  double Step = roundUp125((Hi - Lo) / 5);
  return Axis(std::floor(Lo / Step) * Step, std::ceil(Hi / Step) * Step, false, Step);
}

Axis Axis::integers(double Lo, double Hi) {
  if (!(Hi > Lo))
    Hi = Lo + 1;
  double Step = std::max(1.0, roundUp125((Hi - Lo) / 6));
  return Axis(std::floor(Lo / Step) * Step, std::ceil(Hi / Step) * Step, false, Step);
}

Axis Axis::logarithmic(double Lo, double Hi) {
  Lo = std::max(Lo, 1e-12);
  if (!(Hi > Lo))
    Hi = Lo * 2;
  double L = roundDown125(Lo), H = roundUp125(Hi);
  if (H <= L)
    H = roundUp125(L * 1.5);
  return Axis(L, H, true, 0);
}

double Axis::fraction(double V) const {
  if (Log)
    return (std::log10(std::max(V, 1e-300)) - std::log10(Lo)) / (std::log10(Hi) - std::log10(Lo));
  return (V - Lo) / (Hi - Lo);
}

std::vector<Tick> Axis::ticks() const {
  std::vector<Tick> Out;
  if (!Log) {
    for (double V = Lo; V <= Hi + Step * 1e-6; V += Step)
      Out.push_back({std::abs(V) < Step * 1e-9 ? 0.0 : V, tickLabel(V)});
    return Out;
  }
  // Decades labelled; 2 and 5 labelled too where few decades leave room, else
  // drawn as minor ticks.
  const double Decades = std::log10(Hi / Lo);
  const bool LabelAll = Decades <= 3.01;
  for (double Decade = std::pow(10.0, std::floor(std::log10(Lo))); Decade <= Hi * (1 + 1e-9);
       Decade *= 10)
    for (double M : {1.0, 2.0, 5.0}) {
      double V = M * Decade;
      if (V < Lo * (1 - 1e-9) || V > Hi * (1 + 1e-9))
        continue;
      bool Labelled = M == 1 || LabelAll;
      // Many decades: every other one labelled.
      if (M == 1 && Decades > 6 &&
          static_cast<long>(std::lround(std::log10(V) - std::log10(Lo))) % 2 != 0)
        Labelled = false;
      Out.push_back({V, Labelled ? tickLabel(V) : ""});
    }
  return Out;
}

std::string tickLabel(double V) {
  double A = std::abs(V);
  if (A >= 1e9)
    return trimmed(llvm::formatv("{0:f1}", V / 1e9).str()) + "G";
  if (A >= 1e6)
    return trimmed(llvm::formatv("{0:f1}", V / 1e6).str()) + "M";
  if (A >= 1e4)
    return trimmed(llvm::formatv("{0:f1}", V / 1e3).str()) + "k";
  if (A == 0 || A >= 1)
    return trimmed(llvm::formatv("{0:f2}", V).str());
  if (A >= 1e-3)
    return trimmed(llvm::formatv("{0:f4}", V).str());
  return llvm::formatv("{0:e0}", V).str();
}

} // namespace kopt::report
