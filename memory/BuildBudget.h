// A build-wide optimization budget: the seconds every kcc process of one build
// (support/BuildIdentity.h) has spent optimizing, in a ledger file under the
// user cache (<dir>/builds/<build>), read and added to under its lock.
// Ledgers older than a day are removed when a new one is made.
#pragma once

#include <llvm/Support/Error.h>

#include <string>

namespace kopt::memory {

class BuildBudget {
public:
  // TotalSeconds: what the build may spend in all.
  BuildBudget(std::string CacheDir, std::string Build, double TotalSeconds);

  // Seconds the build has left (never below 0); a ledger that cannot be read
  // counts as nothing spent.
  double remaining() const;
  // Adds Seconds to the ledger.
  llvm::Error spend(double Seconds);
  double total() const { return Total; }

private:
  double spentLocked() const;
  std::string Dir, Path;
  double Total;
};

} // namespace kopt::memory
