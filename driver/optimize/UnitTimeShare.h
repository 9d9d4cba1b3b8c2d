// A compile's kernels that miss the cache, where no recording says what the
// program spends in each (ProgramTimeShare.h): together they get the time each
// would have had, shared in proportion to one launch of each as its pragma
// describes it (VariantEvaluator::timeOnce). A 1 s kernel beside two 1 ms
// kernels gets most of the compile's time rather than a third; what a kernel
// leaves unspent goes to the kernels after it, by the same proportion.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kopt::driver {

class UnitTimeShare {
public:
  struct Weighed {
    const void *Kernel = nullptr; // Its identity: the compile's kernel summary.
    double Ms = 0;                // One launch.
  };
  // Pool: the seconds the kernels share (what they would have had each, less
  // the time weighing them took). Kernels with a launch of 0 ms count as the
  // shortest other one, so that each gets some time.
  UnitTimeShare(std::vector<Weighed> Kernels, double PoolSeconds);

  bool covers(const void *Kernel) const;
  // The kernels weighed.
  size_t size() const { return Kernels.size(); }
  // Kernel's fraction of what is left: its launch over those of the kernels
  // not yet optimized (it among them).
  double fractionLeft(const void *Kernel) const;
  // The seconds Kernel may take now: its fraction of what is left.
  double secondsFor(const void *Kernel) const;
  double leftSeconds() const { return Left; }
  // Kernel is done after Seconds: they leave the pool, and its launch the
  // shares of the kernels after it.
  void spent(const void *Kernel, double Seconds);

private:
  struct Entry {
    Weighed W;
    bool Done = false;
  };
  size_t indexOf(const void *Kernel) const; // size() where Kernel is not weighed.
  std::vector<Entry> Kernels;
  double Left = 0;
};

} // namespace kopt::driver
