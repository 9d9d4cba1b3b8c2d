// The experience store: what each skill achieved, per kind of kernel and
// device, kept across runs and projects in one JSON file (the lead keeps it
// at <cache dir>/experience.json). Besides the counts per skill, kind and
// device it keeps the latest observations (MaxObservations): each try of a
// transform with its parameters, the gain over the variant it was applied to,
// and the kernel's fact vector (FactVector.h), so the planner can ask what
// won on kernels like the current one (evidenceFor). Many processes may record at once: each
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

#include "memory/FactVector.h"
#include "memory/SkillYield.h"

#include <llvm/ADT/STLFunctionalExtras.h>
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

// One try of a skill's transform on a kernel.
struct Observation {
  std::string Skill;
  std::string Params; // "factor=4,loop=0" ("" without parameters).
  std::string Kind, Device;
  FactVector Facts; // The kernel's (the original's, with its profile).
  Outcome Result = Outcome::NotFaster;
  double Gain = 0; // Over the variant the step was applied to (Faster only).
};

// A try counts as a win where it was verified faster by at least this much
// over the variant it was applied to.
constexpr double MinWinGain = 1.02;
bool isWin(const Observation &O);

// How much an observation says about a kernel with Facts on Device: the
// similarity of their facts, halved for another device.
double observationWeight(const Observation &O, const FactVector &Facts, llvm::StringRef Device);

class ExperienceStore {
public:
  static constexpr size_t MaxObservations = 3000;

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
  // Adds a kernel's tries at once (one lock, one write): each to the counts
  // of its skill, kind and device, and to the observations (the oldest drop
  // out beyond MaxObservations).
  llvm::Error recordAll(const std::vector<Observation> &Tries);
  // Rereads the file.
  void reload();

  // All records of a skill summed, or those of one kernel kind (any device).
  SkillRecord statsFor(llvm::StringRef Skill) const;
  SkillRecord statsFor(llvm::StringRef Skill, llvm::StringRef Kind) const;
  // Those of Kind where it has any, else all of the skill's.
  SkillRecord recordFor(llvm::StringRef Skill, llvm::StringRef Kind) const;
  // The ranking score above; Kind may be empty (all kinds).
  double score(llvm::StringRef Skill, llvm::StringRef Kind, double TypicalSpeedup) const;

  // The observations of Skill (and, where Params is given, of that parameter
  // point), each weighted by the similarity of its kernel to Facts; halved
  // for another device.
  Evidence evidenceFor(llvm::StringRef Skill, const std::optional<std::string> &Params,
                       const FactVector &Facts, llvm::StringRef Device) const;

  const std::map<RecordKey, SkillRecord> &records() const { return Records; }
  const std::vector<Observation> &observations() const { return Observations; }
  const std::string &path() const { return Path; }
  // Why the file was read as empty, or empty.
  const std::string &warning() const { return Warning; }

private:
  // Applies Change to what the file holds now, under its lock, and writes it.
  llvm::Error update(llvm::function_ref<void()> Change);

  std::string Path, Warning;
  bool Corrupt = false; // The file exists but does not parse.
  std::map<RecordKey, SkillRecord> Records;
  std::vector<Observation> Observations; // Oldest first.
};

// The score formula alone (tested on its own): posteriorYield with a prior
// likelihood of one half and the typical speedup.
double rankingScore(const SkillRecord &R, double TypicalSpeedup);

// A record's counts as (unweighted) evidence.
Evidence evidenceOf(const SkillRecord &R);

} // namespace kopt::memory
