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
constexpr int FormatVersion = 1;

using Json = nlohmann::json;

// The records in Text, or an error saying why they cannot be read.
llvm::Expected<std::map<RecordKey, SkillRecord>> parseRecords(llvm::StringRef Text) {
  std::map<RecordKey, SkillRecord> Out;
  Json Root = Json::parse(Text.begin(), Text.end(), nullptr, /*allow_exceptions=*/false);
  if (Root.is_discarded() || !Root.is_object())
    return llvm::createStringError("not a JSON object");
  if (Root.value("version", 0) != FormatVersion || !Root.contains("records") ||
      !Root["records"].is_array())
    return llvm::createStringError("not a version %d experience file", FormatVersion);
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
  return Out;
}

std::string serialize(const std::map<RecordKey, SkillRecord> &Records) {
  Json Arr = Json::array();
  for (const auto &[Key, Rec] : Records) {
    Json R = {{"skill", Key.Skill}, {"kind", Key.Kind}, {"device", Key.Device}};
    for (unsigned I = 0; I < NumOutcomes; ++I)
      R[OutcomeNames[I].str()] = Rec.Counts[I];
    R["sum_log_speedup"] = Rec.SumLogSpeedup;
    R["best_speedup"] = Rec.BestSpeedup;
    Arr.push_back(std::move(R));
  }
  Json Root = {{"version", FormatVersion}, {"records", std::move(Arr)}};
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

double rankingScore(const SkillRecord &R, double TypicalSpeedup) {
  double SuccessRate = (R.wins() + 1.0) / (R.tries() + 2.0);
  double MeanLog = (R.SumLogSpeedup + std::log(std::max(TypicalSpeedup, 1.0))) / (R.wins() + 1.0);
  return SuccessRate * MeanLog;
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
  llvm::Expected<std::map<RecordKey, SkillRecord>> R = parseRecords((*Buffer)->getBuffer());
  if (!R) {
    Warning =
        Path + ": corrupt experience file (" + llvm::toString(R.takeError()) + "); starting empty";
    Corrupt = true;
    return;
  }
  Records = std::move(*R);
}

llvm::Error ExperienceStore::record(llvm::StringRef Skill, llvm::StringRef Kind,
                                    llvm::StringRef Device, Outcome O, double Speedup) {
  SkillRecord One;
  One.Counts[unsigned(O)] = 1;
  if (O == Outcome::Faster && Speedup > 0) {
    One.SumLogSpeedup = std::log(Speedup);
    One.BestSpeedup = Speedup;
  }
  if (Path.empty()) {
    Records[{Skill.str(), Kind.str(), Device.str()}].add(One);
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
  Records[{Skill.str(), Kind.str(), Device.str()}].add(One);
  return replaceAtomically(Path, serialize(Records));
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

double ExperienceStore::score(llvm::StringRef Skill, llvm::StringRef Kind,
                              double TypicalSpeedup) const {
  SkillRecord R = Kind.empty() ? statsFor(Skill) : statsFor(Skill, Kind);
  if (R.tries() == 0)
    R = statsFor(Skill);
  return rankingScore(R, TypicalSpeedup);
}

} // namespace kopt::memory
