// Reads and validates one skill file. Errors name the file, line, column and
// field: "skills/unroll.yaml:4:7: field 'when': unknown fact 'loop'".
#pragma once

#include "memory/skills/Skill.h"

#include <llvm/Support/Error.h>

namespace kopt::memory {

// Text is the content of File (File names it in errors and in Skill::File).
llvm::Expected<Skill> parseSkill(llvm::StringRef Text, llvm::StringRef File);
llvm::Expected<Skill> loadSkillFile(llvm::StringRef File);

} // namespace kopt::memory
