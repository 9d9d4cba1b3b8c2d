// The ids of the installed skills, for checking skills(...) in the front end
// without loading the skill library (memory/SkillLibrary.h, which needs
// yaml-cpp and sits above the front end). The ids are the 'id:' lines of the
// skills/*.yaml files; a unit test keeps them equal to what the library loads.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

// The ids in Dir's *.yaml files, sorted; nothing where Dir has none.
std::optional<std::vector<std::string>> skillIdsIn(const std::string &Dir);

// skillIdsIn the install's share/kopt/skills (support/InstallLayout.h), read once.
const std::optional<std::vector<std::string>> &installedSkillIds();

} // namespace kopt::frontend
