#include "driver/optimize/UnitTimeShare.h"

#include <algorithm>

namespace kopt::driver {

UnitTimeShare::UnitTimeShare(std::vector<Weighed> Measured, double PoolSeconds)
    : Left(std::max(PoolSeconds, 0.0)) {
  double Shortest = 0;
  for (const Weighed &W : Measured)
    if (W.Ms > 0 && (Shortest == 0 || W.Ms < Shortest))
      Shortest = W.Ms;
  for (Weighed &W : Measured) {
    if (W.Ms <= 0)
      W.Ms = Shortest > 0 ? Shortest : 1;
    Kernels.push_back({W, false});
  }
}

size_t UnitTimeShare::indexOf(const void *Kernel) const {
  return size_t(std::find_if(Kernels.begin(), Kernels.end(),
                             [&](const Entry &E) { return E.W.Kernel == Kernel; }) -
                Kernels.begin());
}

bool UnitTimeShare::covers(const void *Kernel) const { return indexOf(Kernel) < Kernels.size(); }

double UnitTimeShare::fractionLeft(const void *Kernel) const {
  const size_t Own = indexOf(Kernel);
  if (Own == Kernels.size() || Kernels[Own].Done)
    return 0;
  double Open = 0;
  for (const Entry &E : Kernels)
    if (!E.Done)
      Open += E.W.Ms;
  return Kernels[Own].W.Ms / Open;
}

double UnitTimeShare::secondsFor(const void *Kernel) const { return Left * fractionLeft(Kernel); }

void UnitTimeShare::spent(const void *Kernel, double Seconds) {
  const size_t Own = indexOf(Kernel);
  if (Own == Kernels.size() || Kernels[Own].Done)
    return;
  Kernels[Own].Done = true;
  Left = std::max(Left - Seconds, 0.0);
}

} // namespace kopt::driver
