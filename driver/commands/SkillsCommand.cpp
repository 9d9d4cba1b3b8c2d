// kopt skills: the skill library with each skill's record in the experience store.
#include "driver/Diagnostics.h"
#include "driver/commands/Subcommand.h"
#include "memory/experience/ExperienceStore.h"
#include "memory/experience/KernelFacts.h"
#include "memory/skills/SkillLibrary.h"
#include "support/InstallLayout.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

namespace kopt::driver {

namespace {
using Json = nlohmann::ordered_json;
constexpr llvm::StringRef Tool = "kopt skills";
constexpr llvm::StringRef Usage =
    "kopt skills [list | show ID | facts | record ID OUTCOME [--speedup X] [--kind K] "
    "[--device D]] [--json] [--dir DIR] [--experience FILE]";

struct SkillsArgs {
  std::string Verb = "list";                                        // list, show, facts, record
  std::string Id;                                                   // For show and record.
  std::string Outcome, Kind = "other", Device = "unknown", Speedup; // For record.
  bool Json = false;
  std::string Dir, Experience;
};

// <cache dir>/experience.json, the cache directory as KoptOptions documents it.
std::string defaultExperiencePath() {
  llvm::SmallString<256> Path;
  if (const char *Dir = std::getenv("KOPT_CACHE_DIR"); Dir && *Dir)
    Path = Dir;
  else if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    llvm::sys::path::append(Path, Xdg, "kopt");
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    llvm::sys::path::append(Path, Home, ".cache", "kopt");
  else
    return "";
  llvm::sys::path::append(Path, "experience.json");
  return std::string(Path);
}

llvm::Expected<SkillsArgs> parseArgs(const std::vector<std::string> &Args) {
  SkillsArgs Out;
  bool HaveVerb = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    auto Value = [&](std::string &Into) -> llvm::Error {
      if (I + 1 >= Args.size())
        return llvm::createStringError("%s needs a value", A.c_str());
      Into = Args[++I];
      return llvm::Error::success();
    };
    if (A == "--json") {
      Out.Json = true;
    } else if (A == "--dir" || A == "--experience") {
      if (llvm::Error E = Value(A == "--dir" ? Out.Dir : Out.Experience))
        return E;
    } else if (A == "--kind" || A == "--device" || A == "--speedup") {
      if (llvm::Error E = Value(A == "--kind"     ? Out.Kind
                                : A == "--device" ? Out.Device
                                                  : Out.Speedup))
        return E;
    } else if (!HaveVerb && (A == "show" || A == "facts" || A == "list" || A == "record")) {
      Out.Verb = A;
      HaveVerb = true;
      size_t Operands = A == "show" ? 1 : A == "record" ? 2 : 0;
      if (I + Operands >= Args.size())
        return llvm::createStringError(A == "show" ? "show needs a skill id"
                                                   : "record needs a skill id and an outcome");
      if (Operands > 0)
        Out.Id = Args[++I];
      if (Operands > 1)
        Out.Outcome = Args[++I];
    } else {
      return llvm::createStringError("unknown argument '%s' (usage: %s)", A.c_str(), Usage.data());
    }
  }
  if (Out.Dir.empty())
    Out.Dir = InstallLayout::forRunningBinary().skillsDir();
  if (Out.Experience.empty())
    Out.Experience = defaultExperiencePath();
  return Out;
}

std::string speedupText(const memory::SkillRecord &R) {
  return R.wins() ? llvm::formatv("{0:F2}x", R.meanSpeedup()).str() : "-";
}

Json recordJson(const memory::SkillRecord &R) {
  Json Out = {{"tries", R.tries()}, {"wins", R.wins()}};
  for (unsigned I = 0; I < memory::NumOutcomes; ++I)
    Out[memory::outcomeName(memory::Outcome(I)).str()] = R.Counts[I];
  Out["mean_speedup"] = R.wins() ? Json(R.meanSpeedup()) : Json();
  Out["best_speedup"] = R.wins() ? Json(R.BestSpeedup) : Json();
  return Out;
}

Json skillJson(const memory::Skill &S, const memory::ExperienceStore &Experience, bool Full) {
  Json Out = {{"id", S.Id},
              {"title", S.Title},
              {"category", S.Category},
              {"transform", S.Transform ? Json(*S.Transform) : Json()},
              {"guidance_only", S.GuidanceOnly.empty() ? Json() : Json(S.GuidanceOnly)},
              {"when", S.When.text()},
              {"record", recordJson(Experience.statsFor(S.Id))},
              {"score", Experience.score(S.Id, "", S.TypicalSpeedup)}};
  if (!Full)
    return Out;
  Json Effects = Json::object(), Params = Json::object(), ByKind = Json::array();
  for (const memory::SkillEffect &E : S.Effects)
    Effects[E.Metric] = E.Up ? "up" : "down";
  for (const memory::SkillParam &P : S.Params)
    Params[P.Name] = P.Values;
  for (const auto &[Key, Rec] : Experience.records())
    if (Key.Skill == S.Id) {
      Json R = recordJson(Rec);
      R["kind"] = Key.Kind;
      R["device"] = Key.Device;
      ByKind.push_back(std::move(R));
    }
  Out["typical_speedup"] = S.TypicalSpeedup;
  Out["likelihood"] = S.Likelihood;
  Json Expect = Json::array();
  for (const memory::SkillExpectation &E : S.Expect)
    Expect.push_back(
        {{"when", E.When.text()}, {"speedup", E.Speedup}, {"likelihood", E.Likelihood}});
  Out["expect"] = Expect;
  Out["enables"] = S.Enables;
  Out["effect"] = Effects;
  Out["params"] = Params;
  Out["guidance"] = S.Guidance;
  Out["risks"] = S.Risks;
  Out["file"] = S.File;
  Out["records"] = ByKind;
  return Out;
}

void printList(const memory::SkillLibrary &Library, const memory::ExperienceStore &Experience) {
  llvm::outs() << llvm::formatv("{0,-26} {1,-15} {2,5} {3,5} {4,7}  {5}\n", "ID", "CATEGORY",
                                "TRIES", "WINS", "SPEEDUP", "TITLE");
  for (const memory::Skill &S : Library.skills()) {
    memory::SkillRecord R = Experience.statsFor(S.Id);
    llvm::outs() << llvm::formatv("{0,-26} {1,-15} {2,5} {3,5} {4,7}  {5}{6}\n", S.Id, S.Category,
                                  R.tries(), R.wins(), speedupText(R), S.Title,
                                  S.Transform ? " [transform]" : " [guidance only]");
  }
}

void printShow(const memory::Skill &S, const memory::ExperienceStore &Experience) {
  llvm::raw_ostream &OS = llvm::outs();
  OS << S.Id << ": " << S.Title << "\n"
     << "category: " << S.Category << "\n"
     << "when: " << S.When.text() << "\n"
     << "transform: " << (S.Transform ? *S.Transform : "none") << "\n";
  if (!S.GuidanceOnly.empty())
    OS << "guidance only: " << S.GuidanceOnly << "\n";
  for (const memory::SkillParam &P : S.Params)
    OS << "param " << P.Name << ": " << llvm::join(P.Values, ", ") << "\n";
  OS << "typical speedup: " << llvm::formatv("{0:F2}x", S.TypicalSpeedup) << ", likelihood "
     << llvm::formatv("{0:F2}", S.Likelihood) << "\n";
  for (const memory::SkillExpectation &E : S.Expect)
    OS << "expect where " << E.When.text() << ": " << llvm::formatv("{0:F2}x", E.Speedup)
       << ", likelihood " << llvm::formatv("{0:F2}", E.Likelihood) << "\n";
  if (!S.Enables.empty())
    OS << "enables: " << llvm::join(S.Enables, ", ") << "\n";
  OS << "effect:";
  for (const memory::SkillEffect &E : S.Effects)
    OS << " " << E.Metric << (E.Up ? " up" : " down") << ";";
  memory::SkillRecord R = Experience.statsFor(S.Id);
  OS << "\nrecord: " << R.tries() << " tries, " << R.wins() << " wins, mean speedup "
     << speedupText(R) << "\n";
  for (const auto &[Key, Rec] : Experience.records())
    if (Key.Skill == S.Id)
      OS << "  " << Key.Kind << " on " << Key.Device << ": " << Rec.tries() << " tries, "
         << Rec.wins() << " wins, mean speedup " << speedupText(Rec) << "\n";
  OS << "guidance:\n" << S.Guidance << "\nrisks:\n" << S.Risks << "\n";
}

// Adds one outcome by hand (curating the store, tests).
llvm::Error recordOutcome(const SkillsArgs &Args, const memory::SkillLibrary &Library,
                          memory::ExperienceStore &Experience) {
  if (llvm::Error E = Library.checkToggles({{Args.Id, true}}))
    return E;
  std::optional<memory::Outcome> O = memory::parseOutcome(Args.Outcome);
  if (!O)
    return llvm::createStringError("unknown outcome '" + Args.Outcome +
                                   "' (faster, not_faster, wrong, compile_error, crashed)");
  double Speedup = 0;
  if (*O == memory::Outcome::Faster &&
      (llvm::StringRef(Args.Speedup).getAsDouble(Speedup) || Speedup <= 0))
    return llvm::createStringError("an outcome 'faster' needs --speedup X with X > 0");
  if (Args.Experience.empty())
    return llvm::createStringError("no experience file (--experience FILE or KOPT_CACHE_DIR)");
  return Experience.record(Args.Id, Args.Kind, Args.Device, *O, Speedup);
}

llvm::Error printFacts(bool AsJson) {
  Json Out = Json::array();
  for (const memory::FactInfo &F : memory::knownFacts()) {
    llvm::StringRef Type = F.Type == memory::FactType::Number ? "number" : "boolean";
    llvm::StringRef Source = F.Metric ? "measured" : "static";
    if (AsJson)
      Out.push_back({{"name", F.Name.str()},
                     {"type", Type.str()},
                     {"source", Source.str()},
                     {"description", F.Description.str()}});
    else
      llvm::outs() << llvm::formatv("{0,-30} {1,-8} {2,-9} {3}\n", F.Name, Type, Source,
                                    F.Description);
  }
  if (AsJson)
    llvm::outs() << Out.dump(2) << "\n";
  return llvm::Error::success();
}
} // namespace

llvm::Error runSkills(const std::vector<std::string> &Arguments) {
  llvm::Expected<SkillsArgs> Args = parseArgs(Arguments);
  if (!Args)
    return Args.takeError();
  if (Args->Verb == "facts")
    return printFacts(Args->Json);
  llvm::Expected<memory::SkillLibrary> Library = memory::SkillLibrary::loadDirectory(Args->Dir);
  if (!Library)
    return Library.takeError();
  memory::ExperienceStore Experience = Args->Experience.empty()
                                           ? memory::ExperienceStore::inMemory()
                                           : memory::ExperienceStore::open(Args->Experience);
  if (!Experience.warning().empty())
    Reporter(Tool.str()).warning(Experience.warning());

  if (Args->Verb == "record")
    return recordOutcome(*Args, *Library, Experience);
  if (Args->Verb == "show") {
    const memory::Skill *S = Library->find(Args->Id);
    if (!S) {
      llvm::Error Unknown = Library->checkToggles({{Args->Id, true}});
      return Unknown ? std::move(Unknown) : llvm::createStringError("no skill " + Args->Id);
    }
    if (Args->Json)
      llvm::outs() << skillJson(*S, Experience, /*Full=*/true).dump(2) << "\n";
    else
      printShow(*S, Experience);
    return llvm::Error::success();
  }
  if (!Args->Json) {
    printList(*Library, Experience);
    return llvm::Error::success();
  }
  Json Out = {
      {"skills_dir", Args->Dir}, {"experience", Args->Experience}, {"skills", Json::array()}};
  for (const memory::Skill &S : Library->skills())
    Out["skills"].push_back(skillJson(S, Experience, /*Full=*/false));
  llvm::outs() << Out.dump(2) << "\n";
  return llvm::Error::success();
}

} // namespace kopt::driver
