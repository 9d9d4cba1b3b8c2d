#include "driver/optimize/SkillRetrieval.h"

#include "memory/SkillLibrary.h"
#include "support/InstallLayout.h"

#include <llvm/Support/Format.h>

#include <optional>

namespace kopt::driver {

namespace {
// The installed library, or none (with the reason told to Log).
std::optional<memory::SkillLibrary> loadLibrary(llvm::raw_ostream *Log) {
  auto Library = memory::SkillLibrary::loadDirectory(InstallLayout::forRunningBinary().skillsDir());
  if (Library)
    return std::move(*Library);
  if (Log)
    *Log << "  (no skill library: " << llvm::toString(Library.takeError()) << ")\n";
  else
    llvm::consumeError(Library.takeError());
  return std::nullopt;
}

// The applicable skills, or none where the library does not load or the
// pragma's toggles name unknown skills.
template <typename Fn>
void forSelectedSkills(const frontend::KernelSummary &K, const memory::ProfileMetrics &Metrics,
                       const memory::ExperienceStore &Experience, llvm::raw_ostream *Log, Fn Each) {
  std::optional<memory::SkillLibrary> Library = loadLibrary(Log);
  if (!Library)
    return;
  std::vector<memory::SkillToggle> Toggles;
  if (K.Pragma && K.Pragma->Skills)
    Toggles = *K.Pragma->Skills;
  auto Selected = Library->select(memory::factsFor(K.Features, Metrics), Toggles, Experience,
                                  memory::kernelKind(K.Features));
  if (!Selected) {
    llvm::consumeError(Selected.takeError());
    return;
  }
  for (const memory::SelectedSkill &S : *Selected)
    Each(*S.S);
}
} // namespace

agents::PlanInputs planInputs(const memory::ProfileMetrics &Metrics,
                              const memory::ExperienceStore &Experience, llvm::StringRef Device,
                              llvm::raw_ostream *Log) {
  agents::PlanInputs In;
  if (std::optional<memory::SkillLibrary> Library = loadLibrary(Log))
    In.Skills = std::make_shared<const memory::SkillLibrary>(std::move(*Library));
  In.Metrics = Metrics;
  In.Experience = &Experience;
  In.Device = Device.str();
  return In;
}

agents::LlmRetrieval llmRetrieval(const frontend::KernelSummary &K,
                                  const memory::ProfileMetrics &Metrics,
                                  const memory::ExperienceStore &Experience, llvm::raw_ostream *Log,
                                  size_t MaxSkills) {
  agents::LlmRetrieval R;
  R.Profile.emplace_back("kernel_kind", memory::kernelKind(K.Features));
  for (const auto &[Name, Value] : Metrics) {
    std::string Text;
    llvm::raw_string_ostream(Text) << llvm::format("%.4g", Value);
    R.Profile.emplace_back(Name, Text);
  }
  forSelectedSkills(K, Metrics, Experience, Log, [&](const memory::Skill &S) {
    if (R.Skills.size() < MaxSkills)
      R.Skills.push_back({S.Id, S.Title, S.Guidance});
  });
  return R;
}

} // namespace kopt::driver
