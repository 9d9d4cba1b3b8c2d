// The skill library: every skill of a directory (skills/*.yaml), and the
// selection of those that apply to one kernel, ranked by experience.
#pragma once

#include "clang-plugin/model/PragmaClauses.h"
#include "memory/experience/ExperienceStore.h"
#include "memory/skills/Skill.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::memory {

// One entry of the pragma's skills(+id, -id), as the front end parses it:
// Enabled false excludes the skill, true forces it in even where its predicate
// does not hold.
using SkillToggle = frontend::SkillToggle;

struct SelectedSkill {
  const Skill *S = nullptr;
  double Score = 0; // The expected log speedup of a try (SkillYield.h).
  bool Forced = false;
};

class SkillLibrary {
public:
  // Every *.yaml of Dir, in file name order. All files are checked; the error
  // lists each bad file (file:line:col: field ...) and each duplicate id.
  static llvm::Expected<SkillLibrary> loadDirectory(const std::string &Dir);
  static llvm::Expected<SkillLibrary> fromSkills(std::vector<Skill> Skills);

  const std::vector<Skill> &skills() const { return Skills; }
  const Skill *find(llvm::StringRef Id) const;

  // Checks the toggles' ids: an unknown one is an error with a suggestion.
  llvm::Error checkToggles(const std::vector<SkillToggle> &Toggles) const;

  // The skills whose predicate holds over Facts, plus the forced ones, minus
  // the excluded ones; forced first, then by their yield (SkillYield.h: the
  // prior from Facts, moved by Experience's records for Kind), highest first,
  // then by id. Toggles are checked as in checkToggles.
  llvm::Expected<std::vector<SelectedSkill>> select(const Facts &F,
                                                    const std::vector<SkillToggle> &Toggles,
                                                    const ExperienceStore &Experience,
                                                    llvm::StringRef Kind) const;

private:
  std::vector<Skill> Skills; // Sorted by id.
};

} // namespace kopt::memory
