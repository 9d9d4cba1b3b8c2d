// `kopt verify [--kernel K]... [--runs N] -- COMMAND ARGS...`: the
// application's own check judges kcc's variants (docs/commands.md#kopt-verify).
// COMMAND runs with KOPT_VARIANTS=off (every kernel's original) and with the
// variants on; where it passes without them and fails with them, each kernel
// that ran a variant (KOPT_VARIANTS_LOG, or the --kernel list) is tried alone
// to name the guilty ones, whose cache entries are then marked rejected, so
// that the next kcc compile of them uses the original and says why. Where the
// check passes but the program runs slower with the variants (every run, by
// more than noise), each variant is timed alone the same way and the ones that
// slow the program are rejected too: the program, not the evaluator, judges
// speed.
#include "driver/Diagnostics.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "support/Exec.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/ScopeExit.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/Regex.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <limits>

namespace kopt::driver {

namespace {

const Reporter Voice("kopt verify");

struct VerifyRequest {
  std::vector<std::string> Kernels; // --kernel: the kernels to judge (default: those that ran).
  int Runs = 3;
  bool KeepSlower = false; // --keep-slower: report a slower program, reject nothing for it.
  // --time-from REGEX: the program's own time, the first group (or the whole
  // match) of REGEX's last match in its output, instead of the run's wall time.
  std::optional<std::string> TimeFrom;
  std::vector<std::string> Command;
  std::vector<std::string> CacheArgs; // --kopt-OPTION=V, for the cache kcc uses.
};

llvm::Expected<VerifyRequest> parseVerify(const std::vector<std::string> &Args) {
  VerifyRequest R;
  size_t I = 0;
  for (; I < Args.size() && Args[I] != "--"; ++I) {
    llvm::StringRef A = Args[I];
    if ((A == "--kernel" || A == "--runs" || A == "--time-from") && I + 1 == Args.size())
      return llvm::createStringError("%s needs a value", A.str().c_str());
    if (A == "--kernel") {
      R.Kernels.push_back(Args[++I]);
    } else if (A == "--runs") {
      if (llvm::StringRef(Args[++I]).getAsInteger(10, R.Runs) || R.Runs < 1)
        return llvm::createStringError("--runs needs a positive number, not '%s'", Args[I].c_str());
    } else if (A == "--time-from") {
      R.TimeFrom = Args[++I];
      std::string Why;
      if (!llvm::Regex(*R.TimeFrom).isValid(Why))
        return llvm::createStringError("--time-from '%s' is no regular expression: %s",
                                       R.TimeFrom->c_str(), Why.c_str());
    } else if (A == "--keep-slower") {
      R.KeepSlower = true;
    } else if (A.starts_with("--kopt-")) {
      R.CacheArgs.push_back(A.str());
    } else {
      return llvm::createStringError("unknown argument '%s'", A.str().c_str());
    }
  }
  if (I + 1 >= Args.size())
    return llvm::createStringError(
        "no command to run: kopt verify [--kernel K]... [--runs N] [--time-from REGEX] "
        "[--keep-slower] -- COMMAND ARGS...");
  R.Command.assign(Args.begin() + long(I) + 1, Args.end());
  return R;
}

// The command as a shell would take it back, for messages and the entry.
std::string shellWords(const std::vector<std::string> &Words) {
  std::string Out;
  for (const std::string &W : Words) {
    if (!Out.empty())
      Out += ' ';
    bool Plain = !W.empty() && llvm::all_of(W, [](char C) {
      return llvm::isAlnum(C) || llvm::StringRef("_-./=:,+@%").contains(C);
    });
    if (Plain) {
      Out += W;
      continue;
    }
    Out += '\'';
    for (char C : W)
      Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Out += '\'';
  }
  return Out;
}

struct Run {
  int Status = 0;
  double Time = 0; // Wall seconds, or what --time-from read.
};

// A time as kopt verify prints it: seconds, or the program's own number ("-"
// where a failed run printed none).
std::string timeText(const VerifyRequest &R, double T) {
  if (std::isnan(T))
    return "-";
  return llvm::formatv("{0:F3}", T).str() + (R.TimeFrom ? "" : " s");
}

// One run of the command with KOPT_VARIANTS=Setting (KOPT_VARIANTS_LOG=Log
// where Log is not empty); the environment is restored afterwards.
llvm::Expected<Run> runWith(const VerifyRequest &R, const std::string &Setting,
                            const std::string &Log) {
  ::setenv("KOPT_VARIANTS", Setting.c_str(), 1);
  if (Log.empty())
    ::unsetenv("KOPT_VARIANTS_LOG");
  else
    ::setenv("KOPT_VARIANTS_LOG", Log.c_str(), 1);
  std::string Program = R.Command[0];
  if (Program.find('/') == std::string::npos)
    if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program))
      Program = *Found;
  llvm::outs().flush(); // Before the command writes to the same stdout.
  std::optional<std::string> Reported;
  // Compiled once a run, not once a line of the program's output.
  std::optional<llvm::Regex> TimeRegex;
  if (R.TimeFrom)
    TimeRegex.emplace(*R.TimeFrom);
  auto Start = std::chrono::steady_clock::now();
  llvm::Expected<int> Status =
      TimeRegex ? runAndWaitFilteringStdout(Program, R.Command,
                                            [&](llvm::StringRef Line) {
                                              llvm::SmallVector<llvm::StringRef, 2> Groups;
                                              if (TimeRegex->match(Line, &Groups))
                                                Reported = Groups.back().str();
                                              return std::optional<std::string>(Line.str());
                                            })
                : runAndWait(Program, R.Command);
  auto End = std::chrono::steady_clock::now();
  ::unsetenv("KOPT_VARIANTS");
  ::unsetenv("KOPT_VARIANTS_LOG");
  if (!Status)
    return llvm::createStringError("cannot run %s: %s", R.Command[0].c_str(),
                                   llvm::toString(Status.takeError()).c_str());
  if (!R.TimeFrom)
    return Run{*Status, std::chrono::duration<double>(End - Start).count()};
  // A failed run need not say its time (a crash prints none): the check judges it.
  if (*Status && !Reported)
    return Run{*Status, std::numeric_limits<double>::quiet_NaN()};
  double Time = 0;
  if (!Reported || llvm::StringRef(*Reported).trim().getAsDouble(Time))
    return llvm::createStringError("--time-from '%s': %s (KOPT_VARIANTS=%s)", R.TimeFrom->c_str(),
                                   Reported ? ("'" + *Reported + "' is not a number").c_str()
                                            : "no line of the command's output matches",
                                   Setting.c_str());
  return Run{*Status, Time};
}

// The kernels the log says ran their variant, in the order first seen.
std::vector<std::string> kernelsThatRanVariants(llvm::StringRef Log) {
  std::vector<std::string> Kernels;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Log);
  if (!Text)
    return Kernels;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    auto [Kernel, What] = Line.trim().rsplit(' ');
    if (What == "variant" && !llvm::is_contained(Kernels, Kernel))
      Kernels.push_back(Kernel.str());
  }
  return Kernels;
}

// The times of the runs that have one (a failed run may not, with --time-from).
std::vector<double> timed(std::vector<double> V) {
  llvm::erase_if(V, [](double T) { return std::isnan(T); });
  return V;
}

double median(const std::vector<double> &Times) {
  std::vector<double> V = timed(Times);
  if (V.empty())
    return std::numeric_limits<double>::quiet_NaN();
  llvm::sort(V);
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

// Slower beyond noise: every run with the variants took longer than every run
// without (1 chance in 20 for 3 runs each of the same speed, 1 in 252 for 5),
// and the medians differ by more than SlowerMargin. The times are whole runs:
// a program that spends 2.6 s setting up and 10 ms in its kernels shows a 45%
// slower kernel as 3% (pagerank_pull on the H200), so the margin stays small.
// Fewer than MinSpeedRuns runs cannot tell.
constexpr double SlowerMargin = 0.01;
constexpr int MinSpeedRuns = 3;
bool slowerBeyondNoise(const std::vector<double> &Without, const std::vector<double> &With) {
  if (int(With.size()) < MinSpeedRuns || Without.empty())
    return false;
  return *llvm::min_element(With) > *llvm::max_element(Without) &&
         median(With) > median(Without) * (1 + SlowerMargin);
}

// The kernels of All but K, as KOPT_VARIANTS turns them off: only K's variant runs.
std::string onlyVariantOf(const std::string &K, const std::vector<std::string> &All) {
  std::vector<std::string> Others;
  for (const std::string &O : All)
    if (O != K)
      Others.push_back(O);
  return Others.empty() ? "on" : "off:" + llvm::join(Others, ",");
}

std::string utcNow() {
  std::time_t Now = std::time(nullptr);
  char Text[32];
  std::strftime(Text, sizeof(Text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&Now));
  return Text;
}

// Marks every entry of Kernel with a variant (the user's and the project's
// caches: the run does not say which architecture's entry it used) rejected.
llvm::Error rejectEntries(memory::ResultCache &Cache, const std::string &Kernel,
                          const memory::Rejection &Why) {
  size_t Marked = 0;
  for (const memory::ListedEntry &L : Cache.list()) {
    if (!L.Stored || L.Stored->Entry.KernelName != Kernel || !L.Stored->Entry.Variant)
      continue;
    if (llvm::Error E = Cache.reject(L, Why))
      return llvm::createStringError("cannot mark %s's entry %s: %s", Kernel.c_str(),
                                     L.File.Path.c_str(), llvm::toString(std::move(E)).c_str());
    llvm::outs() << "kopt verify: " << Kernel << ": entry " << L.File.Digest.substr(0, 16)
                 << (L.Project ? " (project cache)" : "") << " marked: " << Why.Why << "\n";
    ++Marked;
  }
  if (!Marked)
    Voice.warning(Kernel + ": no cache entry with a variant to mark (in " + Cache.config().UserDir +
                  (Cache.config().ProjectDir ? " or " + *Cache.config().ProjectDir : "") + ")");
  return llvm::Error::success();
}

// Marks the entries of each of Kernels rejected, for the same reason.
llvm::Error rejectEntries(memory::ResultCache &Cache, const std::vector<std::string> &Kernels,
                          const memory::Rejection &Why) {
  for (const std::string &K : Kernels)
    if (llvm::Error E = rejectEntries(Cache, K, Why))
      return E;
  return llvm::Error::success();
}

// The check passed with the variants. Where the program is slower with them
// beyond noise, each suspect's variant is timed alone against the originals
// (interleaved again), and each one that is slower alone is rejected; where
// none is, all are (they are slower together).
llvm::Error judgeSpeed(const VerifyRequest &R, memory::ResultCache &Cache,
                       const std::string &Command, const std::vector<double> &Off,
                       const std::vector<double> &On, const std::vector<std::string> &Suspects,
                       const std::vector<std::string> &All) {
  if (R.Runs < MinSpeedRuns) {
    llvm::outs() << "kopt verify: speed not judged: " << MinSpeedRuns
                 << " runs each way tell a slower program from noise (--runs " << MinSpeedRuns
                 << ")\n";
    return llvm::Error::success();
  }
  if (!slowerBeyondNoise(Off, On))
    return llvm::Error::success();
  if (Suspects.empty()) {
    Voice.warning("the program is slower with the variants, but no launch of a kernel with a "
                  "variant was logged: was it built by kcc (KOPT_VARIANTS_LOG)?");
    return llvm::Error::success();
  }
  llvm::outs() << llvm::formatv("kopt verify: the program is slower with the variants (every "
                                "run of {0}, by {1:F1}%)\n",
                                R.Runs, (median(On) / median(Off) - 1) * 100);
  if (R.KeepSlower) {
    Voice.warning("--keep-slower: no variant is rejected for it");
    return llvm::Error::success();
  }
  std::vector<std::string> Slower;
  for (const std::string &K : Suspects) {
    std::vector<double> Without, Alone;
    for (int I = 0; I < R.Runs; ++I) {
      llvm::Expected<Run> Original = runWith(R, "off", "");
      if (!Original)
        return Original.takeError();
      llvm::Expected<Run> Only = runWith(R, onlyVariantOf(K, All), "");
      if (!Only)
        return Only.takeError();
      if (Original->Status || Only->Status)
        return failWithStatus(Original->Status ? Original->Status : Only->Status,
                              "`" + Command + "` failed while timing " + K +
                                  "'s variant alone: a check that passes only sometimes cannot "
                                  "judge the variants");
      Without.push_back(Original->Time);
      Alone.push_back(Only->Time);
    }
    bool IsSlower = slowerBeyondNoise(Without, Alone);
    llvm::outs() << "kopt verify: " << K << "'s variant alone: " << timeText(R, median(Alone))
                 << " against " << timeText(R, median(Without)) << " original (median of " << R.Runs
                 << "): " << (IsSlower ? "slower" : "not slower") << "\n";
    if (IsSlower)
      Slower.push_back(K);
  }
  if (Slower.empty()) {
    Voice.warning("no variant is slower alone; " + llvm::join(Suspects, ", ") +
                  " are slower together: rejecting all of them");
    Slower = Suspects;
  }
  if (llvm::Error E =
          rejectEntries(Cache, Slower, {"the program ran slower with it", Command, utcNow()}))
    return E;
  Voice.warning("the variant" + std::string(Slower.size() > 1 ? "s of " : " of ") +
                llvm::join(Slower, ", ") + " made `" + Command +
                "` slower; rebuild the sources that launch " + (Slower.size() > 1 ? "them" : "it") +
                " (kcc now compiles the original)");
  return llvm::Error::success();
}

} // namespace

llvm::Error runVerify(const std::vector<std::string> &Args) {
  llvm::Expected<VerifyRequest> R = parseVerify(Args);
  if (!R)
    return R.takeError();
  llvm::Expected<memory::CacheConfig> Config = cacheConfigFor(R->CacheArgs);
  if (!Config)
    return Config.takeError();
  llvm::Expected<memory::ResultCache> Cache = memory::ResultCache::open(*Config);
  if (!Cache)
    return Cache.takeError();
  llvm::SmallString<128> Log;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("kopt-verify", "log", Log))
    return llvm::createStringError("cannot create a log file: " + EC.message());
  auto RemoveLog = llvm::make_scope_exit([&] {
    if (std::error_code EC = llvm::sys::fs::remove(Log))
      Voice.note("cannot remove the temporary log " + std::string(Log) + ": " + EC.message());
  });
  const std::string Command = shellWords(R->Command);

  // Interleaved, so that a machine's drift falls on both sides alike.
  std::vector<double> Off, On;
  int OffStatus = 0, OnStatus = 0;
  for (int I = 0; I < R->Runs; ++I) {
    llvm::Expected<Run> Original = runWith(*R, "off", "");
    if (!Original)
      return Original.takeError();
    llvm::Expected<Run> Variants = runWith(*R, "on", std::string(Log));
    if (!Variants)
      return Variants.takeError();
    Off.push_back(Original->Time);
    On.push_back(Variants->Time);
    OffStatus = OffStatus ? OffStatus : Original->Status;
    OnStatus = OnStatus ? OnStatus : Variants->Status;
  }
  std::vector<std::string> Ran = kernelsThatRanVariants(Log);
  llvm::outs() << "kopt verify: original kernels (KOPT_VARIANTS=off): "
               << (OffStatus ? "fails, status " + std::to_string(OffStatus) : "passes")
               << "; variants (" << (Ran.empty() ? "none ran" : llvm::join(Ran, ", "))
               << "): " << (OnStatus ? "fails, status " + std::to_string(OnStatus) : "passes")
               << "\n";
  llvm::outs() << "kopt verify: program time" << (R->TimeFrom ? " (its own, --time-from)" : "")
               << ": " << timeText(*R, median(Off)) << " original, " << timeText(*R, median(On))
               << " with variants (median of " << R->Runs << "): "
               << (std::isnan(median(Off) / median(On))
                       ? std::string("-")
                       : llvm::formatv("{0:F2}x", median(Off) / median(On)).str());
  if (std::vector<double> TimedOff = timed(Off), TimedOn = timed(On);
      R->Runs > 1 && !TimedOff.empty() && !TimedOn.empty())
    llvm::outs() << " (runs " << timeText(*R, *llvm::min_element(TimedOff)) << " to "
                 << timeText(*R, *llvm::max_element(TimedOff)) << " and "
                 << timeText(*R, *llvm::min_element(TimedOn)) << " to "
                 << timeText(*R, *llvm::max_element(TimedOn)) << ")";
  llvm::outs() << "\n";
  if (OffStatus)
    return failWithStatus(OffStatus, "`" + Command +
                                         "` fails with the original kernels too: it cannot "
                                         "judge the variants");
  std::vector<std::string> Suspects = R->Kernels.empty() ? Ran : R->Kernels;
  std::vector<std::string> All = Ran;
  for (const std::string &K : R->Kernels)
    if (!llvm::is_contained(All, K))
      All.push_back(K);
  if (!OnStatus)
    return judgeSpeed(*R, *Cache, Command, Off, On, Suspects, All);

  if (Suspects.empty())
    return failWithStatus(1, "`" + Command +
                                 "` fails with the variants, but no launch of a kernel with a "
                                 "variant was logged: was it built by kcc (KOPT_VARIANTS_LOG)?");
  // Kernel by kernel: only K's variant on.
  std::vector<std::string> Guilty;
  for (const std::string &K : Suspects) {
    llvm::Expected<Run> Alone = runWith(*R, onlyVariantOf(K, All), "");
    if (!Alone)
      return Alone.takeError();
    llvm::outs() << "kopt verify: " << K << "'s variant alone: "
                 << (Alone->Status ? "fails, status " + std::to_string(Alone->Status) : "passes")
                 << "\n";
    if (Alone->Status)
      Guilty.push_back(K);
  }
  if (Guilty.empty()) {
    // No variant fails alone: together they do, so none of them is trusted.
    Voice.warning("no variant fails the check alone; " + llvm::join(Suspects, ", ") +
                  " fail it together: rejecting all of them");
    Guilty = Suspects;
  }
  if (llvm::Error E =
          rejectEntries(*Cache, Guilty, {"rejected by the application's check", Command, utcNow()}))
    return E;
  return failWithStatus(
      1, "`" + Command + "` fails with the variant" + (Guilty.size() > 1 ? "s of " : " of ") +
             llvm::join(Guilty, ", ") + "; rebuild the sources that launch " +
             (Guilty.size() > 1 ? "them" : "it") + " (kcc now compiles the original)");
}

} // namespace kopt::driver
