// The experience store: what each skill achieved, per kind of kernel and
// device, kept across runs and projects in one JSON file (the lead keeps it
// at <cache dir>/experience.json). Many processes may record at once: each
// update takes an exclusive lock on <path>.lock, rereads the file, and
// replaces it atomically (write a temporary, rename). A file that does not
// parse is reported once, moved aside to <path>.corrupt on the next record,
// and read as empty; it never stops a run.
//
// Ranking score (used by SkillLibrary::select), for the records that match the
// kernel's kind (all kinds when that kind has none):
//
//   score = (wins + 1) / (tries + 2)                 Laplace-smoothed success rate
//         * (sum of ln(speedup) over wins + ln(typical)) / (wins + 1)
//                                                    mean log speedup of a win
//
// where typical is the skill's typical_speedup: one imagined win at the
// speedup the skill promises is the prior, so an untried skill scores
// 0.5 * ln(typical), a skill that keeps winning big rises, and one that keeps
// failing (not faster, wrong, compile error, crash: all tries without a win)
// sinks towards 0 without ever going negative.
#pragma once

#include <llvm/Support/Error.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

enum class Outcome { Faster, NotFaster, Wrong, CompileError, Crashed };
constexpr unsigned NumOutcomes = 5;

llvm::StringRef outcomeName(Outcome O); // "faster", "not_faster", ...
std::optional<Outcome> parseOutcome(llvm::StringRef Name);

struct SkillRecord {
  unsigned Counts[NumOutcomes] = {};
  double SumLogSpeedup = 0; // Over wins (Faster) only.
  double BestSpeedup = 0;

  unsigned tries() const;
  unsigned wins() const { return Counts[unsigned(Outcome::Faster)]; }
  double meanSpeedup() const; // Geometric mean over wins; 0 without.
  void add(const SkillRecord &Other);
};

struct RecordKey {
  std::string Skill, Kind, Device;
  auto operator<=>(const RecordKey &) const = default;
};

class ExperienceStore {
public:
  // Reads Path if it exists; a missing file is an empty store, a corrupt one
  // too (warning() says why).
  static ExperienceStore open(std::string Path);
  // An empty store that is never written (no path).
  static ExperienceStore inMemory();

  // Adds one outcome under the lock and writes the file; this object then
  // holds what the file holds (other processes' records included). Speedup is
  // original time / variant time (used for Faster only).
  llvm::Error record(llvm::StringRef Skill, llvm::StringRef Kind, llvm::StringRef Device, Outcome O,
                     double Speedup);
  // Rereads the file.
  void reload();

  // All records of a skill summed, or those of one kernel kind (any device).
  SkillRecord statsFor(llvm::StringRef Skill) const;
  SkillRecord statsFor(llvm::StringRef Skill, llvm::StringRef Kind) const;
  // The ranking score above; Kind may be empty (all kinds).
  double score(llvm::StringRef Skill, llvm::StringRef Kind, double TypicalSpeedup) const;

  const std::map<RecordKey, SkillRecord> &records() const { return Records; }
  const std::string &path() const { return Path; }
  // Why the file was read as empty, or empty.
  const std::string &warning() const { return Warning; }

private:
  std::string Path, Warning;
  bool Corrupt = false; // The file exists but does not parse.
  std::map<RecordKey, SkillRecord> Records;
};

// The score formula alone (tested on its own).
double rankingScore(const SkillRecord &R, double TypicalSpeedup);

} // namespace kopt::memory
