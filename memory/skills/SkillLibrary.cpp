#include "memory/skills/SkillLibrary.h"

#include "memory/skills/SkillLoader.h"
#include "memory/skills/SkillYield.h"
#include "support/Spelling.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <map>

namespace kopt::memory {

llvm::Expected<SkillLibrary> SkillLibrary::loadDirectory(const std::string &Dir) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".yaml")
      Files.push_back(It->path());
  if (EC)
    return llvm::createStringError(EC, "cannot read the skill directory %s: %s", Dir.c_str(),
                                   EC.message().c_str());
  std::sort(Files.begin(), Files.end());
  if (Files.empty())
    return llvm::createStringError("no skills (*.yaml) in %s", Dir.c_str());

  std::vector<Skill> Skills;
  std::string Errors;
  for (const std::string &File : Files) {
    llvm::Expected<Skill> S = loadSkillFile(File);
    if (S) {
      Skills.push_back(std::move(*S));
      continue;
    }
    if (!Errors.empty())
      Errors += "\n";
    Errors += llvm::toString(S.takeError());
  }
  llvm::Expected<SkillLibrary> Library = fromSkills(std::move(Skills));
  if (Errors.empty())
    return Library;
  if (!Library) { // Duplicates among the files that loaded.
    Errors += "\n";
    Errors += llvm::toString(Library.takeError());
  }
  return llvm::createStringError(Errors);
}

llvm::Expected<SkillLibrary> SkillLibrary::fromSkills(std::vector<Skill> Skills) {
  std::map<std::string, const Skill *> ById;
  std::string Errors;
  for (const Skill &S : Skills) {
    auto [It, New] = ById.emplace(S.Id, &S);
    if (New)
      continue;
    if (!Errors.empty())
      Errors += "\n";
    Errors += S.File + ": duplicate skill id '" + S.Id + "' (also in " + It->second->File + ")";
  }
  for (const Skill &S : Skills)
    for (size_t I = 0; I < S.Enables.size(); ++I)
      if (!ById.count(S.Enables[I])) {
        if (!Errors.empty())
          Errors += "\n";
        Errors += S.EnablesAt[I] + ": field 'enables': unknown skill '" + S.Enables[I] + "'";
      }
  if (!Errors.empty())
    return llvm::createStringError(Errors);
  SkillLibrary L;
  L.Skills = std::move(Skills);
  std::sort(L.Skills.begin(), L.Skills.end(),
            [](const Skill &A, const Skill &B) { return A.Id < B.Id; });
  return L;
}

const Skill *SkillLibrary::find(llvm::StringRef Id) const {
  auto It = std::lower_bound(Skills.begin(), Skills.end(), Id,
                             [](const Skill &S, llvm::StringRef Key) { return S.Id < Key; });
  return It != Skills.end() && It->Id == Id ? &*It : nullptr;
}

llvm::Error SkillLibrary::checkToggles(const std::vector<SkillToggle> &Toggles) const {
  std::vector<llvm::StringRef> Ids;
  for (const Skill &S : Skills)
    Ids.push_back(S.Id);
  for (const SkillToggle &T : Toggles) {
    if (find(T.Id))
      continue;
    std::string Message = "unknown skill '" + T.Id + "'";
    Message += didYouMean(closestSpelling(T.Id, Ids, 3));
    return llvm::createStringError(Message);
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<SelectedSkill>>
SkillLibrary::select(const Facts &F, const std::vector<SkillToggle> &Toggles,
                     const ExperienceStore &Experience, llvm::StringRef Kind) const {
  if (llvm::Error E = checkToggles(Toggles))
    return E;
  // The last toggle of an id wins, as in skills(+a, -a).
  std::map<std::string, bool, std::less<>> Toggled;
  for (const SkillToggle &T : Toggles)
    Toggled[T.Id] = T.Enabled;

  std::vector<SelectedSkill> Out;
  for (const Skill &S : Skills) {
    auto T = Toggled.find(S.Id);
    bool Forced = T != Toggled.end() && T->second;
    if (T != Toggled.end() && !T->second)
      continue;
    if (!Forced && !S.When.holds(F))
      continue;
    Evidence E = evidenceOf(Experience.recordFor(S.Id, Kind));
    Out.push_back({&S, posteriorYield(priorYield(S, F), E).value(), Forced});
  }
  std::stable_sort(Out.begin(), Out.end(), [](const SelectedSkill &A, const SelectedSkill &B) {
    if (A.Forced != B.Forced)
      return A.Forced;
    return A.Score > B.Score;
  });
  return Out;
}

} // namespace kopt::memory
