#include "memory/ExperienceStore.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <utility>

namespace kopt::memory {

namespace {
constexpr llvm::StringRef OutcomeNames[NumOutcomes] = {"faster", "not_faster", "wrong",
                                                       "compile_error", "crashed"};
// Version 2 added the observations; version 1 files (records only) are read.
constexpr int FormatVersion = 2;

using Json = nlohmann::json;

struct Contents {
  std::map<RecordKey, SkillRecord> Records;
  std::vector<Observation> Observations;
};

llvm::Expected<Observation> parseObservation(const Json &O) {
  if (!O.is_object() || !O.contains("skill") || !O["skill"].is_string() ||
      !O.value("facts", Json()).is_object())
    return llvm::createStringError("an observation without a skill or facts");
  Observation Out;
  Out.Skill = O["skill"].get<std::string>();
  Out.Params = O.value("params", std::string());
  Out.Kind = O.value("kind", std::string());
  Out.Device = O.value("device", std::string());
  std::optional<Outcome> R = parseOutcome(O.value("outcome", std::string()));
  if (!R)
    return llvm::createStringError("an observation with a bad outcome");
  Out.Result = *R;
  const Json &Gain = O.value("gain", Json(0.0));
  if (!Gain.is_number())
    return llvm::createStringError("an observation with a bad gain");
  Out.Gain = Gain.get<double>();
  for (const auto &[Name, V] : O["facts"].items()) {
    if (!V.is_number())
      return llvm::createStringError("an observation with a bad fact '%s'", Name.c_str());
    Out.Facts[Name] = V.get<double>();
  }
  return Out;
}

Json observationJson(const Observation &O) {
  Json Facts = Json::object();
  for (const auto &[Name, V] : O.Facts)
    Facts[Name] = std::round(V * 1000) / 1000;
  return {{"skill", O.Skill},
          {"params", O.Params},
          {"kind", O.Kind},
          {"device", O.Device},
          {"outcome", outcomeName(O.Result)},
          {"gain", O.Gain},
          {"facts", std::move(Facts)}};
}

// The records in Text, or an error saying why they cannot be read.
llvm::Expected<Contents> parseRecords(llvm::StringRef Text) {
  Contents Read;
  std::map<RecordKey, SkillRecord> &Out = Read.Records;
  Json Root = Json::parse(Text.begin(), Text.end(), nullptr, /*allow_exceptions=*/false);
  if (Root.is_discarded() || !Root.is_object())
    return llvm::createStringError("not a JSON object");
  int Version = Root.value("version", 0);
  if ((Version != 1 && Version != FormatVersion) || !Root.contains("records") ||
      !Root["records"].is_array())
    return llvm::createStringError("not a version 1 or %d experience file", FormatVersion);
  for (const Json &R : Root["records"]) {
    if (!R.is_object() || !R.contains("skill") || !R["skill"].is_string())
      return llvm::createStringError("a record without a skill");
    RecordKey Key{R["skill"].get<std::string>(), R.value("kind", std::string()),
                  R.value("device", std::string())};
    SkillRecord Rec;
    for (unsigned I = 0; I < NumOutcomes; ++I) {
      const Json &C = R.value(OutcomeNames[I].str(), Json(0));
      if (!C.is_number_unsigned())
        return llvm::createStringError("a record with a bad '%s' count", OutcomeNames[I].data());
      Rec.Counts[I] = C.get<unsigned>();
    }
    const Json &Sum = R.value("sum_log_speedup", Json(0.0));
    const Json &Best = R.value("best_speedup", Json(0.0));
    if (!Sum.is_number() || !Best.is_number())
      return llvm::createStringError("a record with a bad speedup");
    Rec.SumLogSpeedup = Sum.get<double>();
    Rec.BestSpeedup = Best.get<double>();
    Out[Key].add(Rec);
  }
  const Json &Observations = Root.value("observations", Json::array());
  if (!Observations.is_array())
    return llvm::createStringError("observations that are not a list");
  for (const Json &O : Observations) {
    llvm::Expected<Observation> One = parseObservation(O);
    if (!One)
      return One.takeError();
    Read.Observations.push_back(std::move(*One));
  }
  return Read;
}

std::string serialize(const std::map<RecordKey, SkillRecord> &Records,
                      const std::vector<Observation> &Observations) {
  Json Arr = Json::array();
  for (const auto &[Key, Rec] : Records) {
    Json R = {{"skill", Key.Skill}, {"kind", Key.Kind}, {"device", Key.Device}};
    for (unsigned I = 0; I < NumOutcomes; ++I)
      R[OutcomeNames[I].str()] = Rec.Counts[I];
    R["sum_log_speedup"] = Rec.SumLogSpeedup;
    R["best_speedup"] = Rec.BestSpeedup;
    Arr.push_back(std::move(R));
  }
  Json Seen = Json::array();
  for (const Observation &O : Observations)
    Seen.push_back(observationJson(O));
  Json Root = {
      {"version", FormatVersion}, {"records", std::move(Arr)}, {"observations", std::move(Seen)}};
  return Root.dump(1) + "\n";
}

// Holds <path>.lock exclusively while alive.
class FileLock {
public:
  static llvm::Expected<FileLock> acquire(const std::string &Path) {
    std::string LockPath = Path + ".lock";
    int FD = -1;
    if (std::error_code EC = llvm::sys::fs::openFileForReadWrite(
            LockPath, FD, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_None))
      return llvm::createStringError(EC, "cannot open %s: %s", LockPath.c_str(),
                                     EC.message().c_str());
    if (std::error_code EC = llvm::sys::fs::tryLockFile(FD, std::chrono::minutes(1))) {
      llvm::sys::Process::SafelyCloseFileDescriptor(FD);
      return llvm::createStringError(EC, "cannot lock %s: %s", LockPath.c_str(),
                                     EC.message().c_str());
    }
    return FileLock(FD);
  }
  FileLock(FileLock &&Other) : FD(std::exchange(Other.FD, -1)) {}
  FileLock &operator=(FileLock &&) = delete;
  ~FileLock() {
    if (FD < 0)
      return;
    llvm::sys::fs::unlockFile(FD);
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }

private:
  explicit FileLock(int Locked) : FD(Locked) {}
  int FD;
};

// Writes Text to a unique temporary beside Path and renames it over Path.
llvm::Error replaceAtomically(const std::string &Path, const std::string &Text) {
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temp))
    return llvm::createStringError(EC, "cannot create a temporary beside %s: %s", Path.c_str(),
                                   EC.message().c_str());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.flush();
    if (OS.has_error()) {
      std::string Message = OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return llvm::createStringError("cannot write %s: %s", Temp.c_str(), Message.c_str());
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return llvm::createStringError(EC, "cannot replace %s: %s", Path.c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}
} // namespace

llvm::StringRef outcomeName(Outcome O) { return OutcomeNames[unsigned(O)]; }

std::optional<Outcome> parseOutcome(llvm::StringRef Name) {
  for (unsigned I = 0; I < NumOutcomes; ++I)
    if (OutcomeNames[I] == Name)
      return Outcome(I);
  return std::nullopt;
}

unsigned SkillRecord::tries() const {
  unsigned N = 0;
  for (unsigned C : Counts)
    N += C;
  return N;
}

double SkillRecord::meanSpeedup() const { return wins() ? std::exp(SumLogSpeedup / wins()) : 0; }

void SkillRecord::add(const SkillRecord &Other) {
  for (unsigned I = 0; I < NumOutcomes; ++I)
    Counts[I] += Other.Counts[I];
  SumLogSpeedup += Other.SumLogSpeedup;
  BestSpeedup = std::max(BestSpeedup, Other.BestSpeedup);
}

Evidence evidenceOf(const SkillRecord &R) {
  Evidence E;
  E.Tries = R.tries();
  E.Wins = R.wins();
  E.SumLogGain = R.SumLogSpeedup;
  return E;
}

double rankingScore(const SkillRecord &R, double TypicalSpeedup) {
  return posteriorYield({0.5, TypicalSpeedup}, evidenceOf(R)).value();
}

ExperienceStore ExperienceStore::open(std::string Path) {
  ExperienceStore S;
  S.Path = std::move(Path);
  S.reload();
  return S;
}

ExperienceStore ExperienceStore::inMemory() { return ExperienceStore(); }

void ExperienceStore::reload() {
  Records.clear();
  Observations.clear();
  Warning.clear();
  Corrupt = false;
  if (Path.empty())
    return;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    if (Buffer.getError() != std::errc::no_such_file_or_directory)
      Warning = Path + ": cannot read (" + Buffer.getError().message() + "); starting empty";
    return;
  }
  llvm::Expected<Contents> R = parseRecords((*Buffer)->getBuffer());
  if (!R) {
    Warning =
        Path + ": corrupt experience file (" + llvm::toString(R.takeError()) + "); starting empty";
    Corrupt = true;
    return;
  }
  Records = std::move(R->Records);
  Observations = std::move(R->Observations);
}

namespace {
SkillRecord oneOutcome(Outcome O, double Speedup) {
  SkillRecord One;
  One.Counts[unsigned(O)] = 1;
  if (O == Outcome::Faster && Speedup > 0) {
    One.SumLogSpeedup = std::log(Speedup);
    One.BestSpeedup = Speedup;
  }
  return One;
}
} // namespace

llvm::Error ExperienceStore::record(llvm::StringRef Skill, llvm::StringRef Kind,
                                    llvm::StringRef Device, Outcome O, double Speedup) {
  return update(
      [&] { Records[{Skill.str(), Kind.str(), Device.str()}].add(oneOutcome(O, Speedup)); });
}

llvm::Error ExperienceStore::recordAll(const std::vector<Observation> &Tries) {
  if (Tries.empty())
    return llvm::Error::success();
  return update([&] {
    for (const Observation &T : Tries) {
      // A verified step that gained less than MinWinGain over its parent is no win.
      bool Win = isWin(T);
      Outcome Counted = T.Result == Outcome::Faster && !Win ? Outcome::NotFaster : T.Result;
      Records[{T.Skill, T.Kind, T.Device}].add(oneOutcome(Counted, T.Gain));
      Observations.push_back(T);
    }
    if (Observations.size() > MaxObservations)
      Observations.erase(Observations.begin(),
                         Observations.end() - static_cast<ptrdiff_t>(MaxObservations));
  });
}

llvm::Error ExperienceStore::update(llvm::function_ref<void()> Change) {
  if (Path.empty()) {
    Change();
    return llvm::Error::success();
  }
  if (std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
    return llvm::createStringError(EC, "cannot create the directory of %s: %s", Path.c_str(),
                                   EC.message().c_str());
  llvm::Expected<FileLock> Lock = FileLock::acquire(Path);
  if (!Lock)
    return Lock.takeError();
  reload();
  if (Corrupt)
    llvm::sys::fs::rename(Path, Path + ".corrupt"); // Kept for a look, out of the way.
  Change();
  return replaceAtomically(Path, serialize(Records, Observations));
}

SkillRecord ExperienceStore::statsFor(llvm::StringRef Skill) const {
  SkillRecord Sum;
  for (const auto &[Key, Rec] : Records)
    if (Key.Skill == Skill)
      Sum.add(Rec);
  return Sum;
}

SkillRecord ExperienceStore::statsFor(llvm::StringRef Skill, llvm::StringRef Kind) const {
  SkillRecord Sum;
  for (const auto &[Key, Rec] : Records)
    if (Key.Skill == Skill && Key.Kind == Kind)
      Sum.add(Rec);
  return Sum;
}

SkillRecord ExperienceStore::recordFor(llvm::StringRef Skill, llvm::StringRef Kind) const {
  SkillRecord R = Kind.empty() ? statsFor(Skill) : statsFor(Skill, Kind);
  if (R.tries() == 0)
    R = statsFor(Skill);
  return R;
}

double ExperienceStore::score(llvm::StringRef Skill, llvm::StringRef Kind,
                              double TypicalSpeedup) const {
  return rankingScore(recordFor(Skill, Kind), TypicalSpeedup);
}

bool isWin(const Observation &O) { return O.Result == Outcome::Faster && O.Gain >= MinWinGain; }

double observationWeight(const Observation &O, const FactVector &Facts, llvm::StringRef Device) {
  return similarity(Facts, O.Facts) * (O.Device == Device ? 1 : 0.5);
}

Evidence ExperienceStore::evidenceFor(llvm::StringRef Skill,
                                      const std::optional<std::string> &Params,
                                      const FactVector &Facts, llvm::StringRef Device) const {
  Evidence E;
  for (const Observation &O : Observations) {
    if (O.Skill != Skill || (Params && O.Params != *Params))
      continue;
    double Weight = observationWeight(O, Facts, Device);
    if (Weight > 0)
      E.add(Weight, isWin(O), O.Gain);
  }
  return E;
}

} // namespace kopt::memory
