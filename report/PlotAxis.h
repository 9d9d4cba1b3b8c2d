// A plot axis: its range, linear or logarithmic, and its ticks with labels.
// Ranges widen to round values (1, 2, 5 times a power of ten) so that ticks
// fall on numbers a reader can take in at a glance.
#pragma once

#include <string>
#include <vector>

namespace kopt::report {

struct Tick {
  double Value = 0;
  std::string Label; // "" : a minor tick, drawn without a label.
};

class Axis {
public:
  // Lo..Hi widened to multiples of a round step (about five steps); a
  // degenerate range is widened around its value.
  static Axis linear(double Lo, double Hi);
  // Integer ticks only (counts, indices): Lo..Hi widened to whole steps.
  static Axis integers(double Lo, double Hi);
  // Lo..Hi (both > 0) widened to the 1-2-5 values around them.
  static Axis logarithmic(double Lo, double Hi);

  double lo() const { return Lo; }
  double hi() const { return Hi; }
  bool isLog() const { return Log; }
  // Where V falls between lo() (0) and hi() (1); outside for values beyond.
  double fraction(double V) const;
  std::vector<Tick> ticks() const;

private:
  Axis(double L, double H, bool IsLog, double S) : Lo(L), Hi(H), Log(IsLog), Step(S) {}
  double Lo, Hi;
  bool Log;
  double Step; // Linear: between ticks.
};

// "0.5", "12", "2.5k", "1.2M": a tick label, short.
std::string tickLabel(double V);

} // namespace kopt::report
