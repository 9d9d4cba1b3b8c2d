#include "driver/worker/WorkerLoop.h"

#include "memory/queue/JobQueue.h"
#include "memory/remote/RemoteBackend.h"
#include "support/AtomicFile.h"
#include "support/ChildProcess.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <chrono>
#include <csignal>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace kopt::driver {

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t StopRequested = 0;
extern "C" void requestStop(int) { StopRequested = 1; }

double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

std::string readText(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

// The last non-empty line of a job's log: what a process that died said last.
std::string lastLine(const std::string &Text) {
  llvm::StringRef Rest = llvm::StringRef(Text).rtrim();
  return Rest.rsplit('\n').second.empty() ? Rest.str() : Rest.rsplit('\n').second.str();
}

struct RunningJob {
  memory::QueuedMessage Message;
  ChildProcess Process;
  Clock::time_point Started;
  std::string JobFile, ResultFile, ErrorFile, LogFile;
};

// A result made but not yet in every remote cache: its job stays ours (its
// lease renewed) while publishing is tried again.
struct UnpublishedResult {
  memory::QueuedMessage Message;
  std::string Bytes, Summary;
  Clock::time_point NextTry;
};

class Worker {
public:
  Worker(const WorkerConfig &C, llvm::raw_ostream &L)
      : Config(C), Log(L), Queue(C.Queue), Slots(C.Devices.size()) {}

  int run();

private:
  void say(const llvm::Twine &Line) {
    Log << "kopt worker: " << Line << "\n";
    Log.flush();
  }
  std::string nameOf(const memory::QueuedMessage &M) const {
    return "job " + M.Id + " " + M.Kernel + " (" + M.Origin + ", " + M.Arch + ")";
  }
  // A queue that cannot be reached is said once until it answers again.
  void queueTrouble(llvm::Error E);
  void queueAnswered() {
    if (!Trouble.empty())
      say("the queue answers again");
    Trouble.clear();
  }

  bool prepare();
  void takeJobs();
  void start(const memory::QueuedMessage &M, size_t Slot);
  bool alreadyPublished(const std::string &Key);
  void reap();
  void finished(RunningJob &Job, int Status);
  void failedAttempt(const memory::QueuedMessage &M, const std::string &Error);
  void publish(const memory::QueuedMessage &M, std::string Bytes, std::string Summary);
  std::string publishEverywhere(const std::string &Key, const std::string &Bytes);
  void complete(const memory::QueuedMessage &M, const std::string &Summary);
  void renewLeases();
  void retryPublishing();
  void stop();
  bool done() const;

  const WorkerConfig &Config;
  llvm::raw_ostream &Log;
  memory::JobQueue Queue;
  std::vector<std::optional<RunningJob>> Slots; // One a device.
  std::vector<UnpublishedResult> Unpublished;
  std::vector<std::unique_ptr<memory::RemoteBackend>> Remotes;
  unsigned Taken = 0, Ended = 0;
  Clock::time_point LastJob = Clock::now(), LastRenewal = Clock::now();
  std::string Trouble;
};

void Worker::queueTrouble(llvm::Error E) {
  memory::RemoteProblem P = memory::describeRemoteError(std::move(E));
  if (P.Message != Trouble)
    say("warning: queue " + Queue.spec().display() + ": " + P.Message +
        (P.Unreachable ? "; trying again" : ""));
  Trouble = P.Message;
  std::this_thread::sleep_for(std::chrono::seconds(1));
}

bool Worker::prepare() {
  std::set<std::string> Archs;
  for (const WorkerDevice &D : Config.Devices)
    Archs.insert(D.Arch);
  for (const std::string &Arch : Archs)
    while (true) {
      if (StopRequested)
        return false;
      llvm::Error E = Queue.prepare(Arch);
      if (!E)
        break;
      queueTrouble(std::move(E));
    }
  queueAnswered();
  for (const memory::RemoteSpec &S : Config.Publish) {
    llvm::Expected<std::unique_ptr<memory::RemoteBackend>> B = memory::makeRemoteBackend(S);
    if (!B) {
      say("error: remote cache " + S.display() + ": " + llvm::toString(B.takeError()));
      return false;
    }
    Remotes.push_back(std::move(*B));
  }
  return true;
}

bool Worker::alreadyPublished(const std::string &Key) {
  for (const std::unique_ptr<memory::RemoteBackend> &R : Remotes) {
    llvm::Expected<bool> Has = R->exists(Key);
    if (Has && *Has)
      return true;
    if (!Has)
      llvm::consumeError(Has.takeError()); // Then it is optimized; publishing will say why.
  }
  return false;
}

void Worker::takeJobs() {
  auto Limited = [&] { return Config.MaxJobs && Taken >= Config.MaxJobs; };
  for (size_t Slot = 0; Slot < Slots.size(); ++Slot) {
    if (Slots[Slot] || Limited())
      continue;
    llvm::Expected<std::optional<memory::QueuedMessage>> Stale =
        Queue.claimStale(Config.Devices[Slot].Arch, Config.Name, Config.LeaseMs);
    if (!Stale)
      return queueTrouble(Stale.takeError());
    queueAnswered();
    bool Ours = *Stale && std::any_of(Slots.begin(), Slots.end(), [&](const auto &S) {
      return S && S->Message.Id == (*Stale)->Id;
    }); // Its renewal came late: the job runs here already.
    if (*Stale && !Ours) {
      say("took over " + nameOf(**Stale) + " (attempt " + llvm::Twine((*Stale)->Deliveries) +
          "): its last worker released it after a failure, or stopped renewing its lease");
      start(**Stale, Slot);
    }
  }
  std::vector<std::string> Archs;
  for (size_t Slot = 0; Slot < Slots.size(); ++Slot)
    if (!Slots[Slot] && !llvm::is_contained(Archs, Config.Devices[Slot].Arch))
      Archs.push_back(Config.Devices[Slot].Arch);
  if (Archs.empty() || Limited())
    return;
  bool Busy = !Unpublished.empty() ||
              std::any_of(Slots.begin(), Slots.end(), [](const auto &S) { return S.has_value(); });
  llvm::Expected<std::optional<memory::QueuedMessage>> New =
      Queue.readNew(Archs, Config.Name, Busy ? 200 : 1000);
  if (!New)
    return queueTrouble(New.takeError());
  queueAnswered();
  if (!*New)
    return;
  for (size_t Slot = 0; Slot < Slots.size(); ++Slot)
    if (!Slots[Slot] && Config.Devices[Slot].Arch == (*New)->Arch)
      return start(**New, Slot);
}

void Worker::start(const memory::QueuedMessage &M, size_t Slot) {
  if (M.Deliveries > memory::JobQueue::MaxAttempts) {
    // Its earlier attempts all failed, the last one with its worker.
    llvm::Expected<std::string> Before = Queue.lastError(M);
    std::string Why =
        "its worker stopped during attempt " + std::to_string(memory::JobQueue::MaxAttempts);
    if (Before && !Before->empty())
      Why += " (before: " + *Before + ")";
    if (!Before)
      llvm::consumeError(Before.takeError());
    failedAttempt(M, Why);
    return;
  }
  ++Taken;
  LastJob = Clock::now();
  if (alreadyPublished(M.Key)) {
    ++Ended;
    complete(M, "already in the remote cache");
    return;
  }
  const WorkerDevice &D = Config.Devices[Slot];
  std::string Base = Config.WorkDir + "/jobs/" + M.Id;
  std::string JobFile = Base + ".json", ResultFile = Base + ".entry", ErrorFile = Base + ".error",
              LogFile = Base + ".log";
  llvm::sys::fs::remove(ResultFile);
  llvm::sys::fs::remove(ErrorFile);
  if (llvm::Error E = writeFileAtomically(JobFile, M.JobText)) {
    ++Ended;
    failedAttempt(M, "cannot write the job's file: " + llvm::toString(std::move(E)));
    return;
  }
  JobProcess P = Config.Process(D, JobFile, ResultFile, ErrorFile);
  llvm::Expected<ChildProcess> Child = ChildProcess::start(P.Program, P.Args, P.Env, LogFile);
  if (!Child) {
    ++Ended;
    failedAttempt(M, "cannot start the job's process: " + llvm::toString(Child.takeError()));
    return;
  }
  say(nameOf(M) + " on device " + D.Id + " (" + D.Name + "): started, attempt " +
      llvm::Twine(M.Deliveries) + " of " + llvm::Twine(memory::JobQueue::MaxAttempts) + " (log " +
      LogFile + ")");
  Slots[Slot] = RunningJob{M, *Child, Clock::now(), JobFile, ResultFile, ErrorFile, LogFile};
}

void Worker::reap() {
  for (std::optional<RunningJob> &Slot : Slots) {
    if (!Slot)
      continue;
    std::optional<int> Status = Slot->Process.poll();
    if (!Status && secondsSince(Slot->Started) > Config.JobTimeoutSeconds) {
      Slot->Process.kill();
      ++Ended;
      LastJob = Clock::now();
      failedAttempt(
          Slot->Message,
          llvm::formatv("killed after {0:F0} s (--job-timeout)", Config.JobTimeoutSeconds).str());
      Slot.reset();
      continue;
    }
    if (!Status)
      continue;
    RunningJob Job = std::move(*Slot);
    Slot.reset();
    ++Ended;
    LastJob = Clock::now();
    finished(Job, *Status);
  }
}

void Worker::finished(RunningJob &Job, int Status) {
  const memory::QueuedMessage &M = Job.Message;
  double Seconds = secondsSince(Job.Started);
  std::string Bytes = readText(Job.ResultFile);
  if (Status != 0 || Bytes.empty()) {
    std::string Error = llvm::StringRef(readText(Job.ErrorFile)).trim().str();
    if (Error.empty())
      Error = "its process exited with status " + std::to_string(Status) + ": " +
              lastLine(readText(Job.LogFile));
    failedAttempt(M, Error);
    return;
  }
  llvm::Expected<memory::StoredEntry> Entry = memory::parseEntry(Bytes);
  if (Entry && Entry->Key.Digest != M.Key)
    Entry = llvm::createStringError("its entry is for key %s, not the job's",
                                    Entry->Key.Digest.c_str());
  if (!Entry) {
    failedAttempt(M, "its result is not a valid cache entry: " + llvm::toString(Entry.takeError()));
    return;
  }
  llvm::sys::fs::remove(Job.JobFile);
  // Kept beside the remotes: the user cache of the worker's host.
  llvm::Expected<memory::ResultCache> Local = memory::ResultCache::open(Config.LocalCache);
  llvm::Error Stored = Local ? Local->store(Entry->Key, Entry->Entry) : Local.takeError();
  if (Stored)
    say("warning: " + nameOf(M) +
        ": not kept in the local cache: " + llvm::toString(std::move(Stored)));
  publish(M, std::move(Bytes),
          llvm::formatv("{0:F1} s, {1}", Seconds, memory::describeEntry(Entry->Entry)).str());
}

void Worker::failedAttempt(const memory::QueuedMessage &M, const std::string &Error) {
  unsigned Attempt = std::min(M.Deliveries, memory::JobQueue::MaxAttempts);
  if (M.Deliveries >= memory::JobQueue::MaxAttempts) {
    std::string Why = "failed " + std::to_string(Attempt) + " times; the last: " + Error;
    if (llvm::Error E = Queue.deadLetter(M, Config.Name, Why)) {
      say("warning: " + nameOf(M) + ": not moved to the dead letters: " +
          llvm::toString(std::move(E)) + " (another worker will after the lease)");
      return;
    }
    say(nameOf(M) + ": " + Why + "; moved to the dead-letter stream");
    return;
  }
  std::string Why = "attempt " + std::to_string(Attempt) + " on " + Config.Name + ": " + Error;
  if (llvm::Error E = Queue.release(M, Config.Name, Why, Config.LeaseMs)) {
    say("warning: " + nameOf(M) + ": " + Why + "; not released: " + llvm::toString(std::move(E)) +
        " (another worker takes it after the lease)");
    return;
  }
  say(nameOf(M) + ": " + Why + "; back in the queue");
}

std::string Worker::publishEverywhere(const std::string &Key, const std::string &Bytes) {
  std::vector<std::string> Failures;
  for (size_t I = 0; I < Remotes.size(); ++I)
    if (llvm::Error E = Remotes[I]->put(Key, Bytes))
      Failures.push_back(Config.Publish[I].display() + ": " +
                         memory::describeRemoteError(std::move(E)).Message);
  return llvm::join(Failures, "; ");
}

void Worker::publish(const memory::QueuedMessage &M, std::string Bytes, std::string Summary) {
  std::string Failures = publishEverywhere(M.Key, Bytes);
  if (Failures.empty()) {
    complete(M, Summary);
    return;
  }
  say("warning: " + nameOf(M) + ": not published: " + Failures + "; trying again every 10 s");
  Unpublished.push_back({M, std::move(Bytes), std::move(Summary), Clock::now()});
}

void Worker::complete(const memory::QueuedMessage &M, const std::string &Summary) {
  std::vector<std::string> Shown;
  for (const memory::RemoteSpec &S : Config.Publish)
    Shown.push_back(S.display());
  llvm::Expected<bool> Acked = Queue.complete(M);
  if (!Acked) {
    say("warning: " + nameOf(M) + ": done, but not acknowledged: " +
        llvm::toString(Acked.takeError()) + " (the next worker finds it in the remote cache)");
    return;
  }
  say(nameOf(M) + ": done (" + Summary + "), published to " + llvm::join(Shown, ", ") +
      (*Acked ? "" : "; another worker had acknowledged it"));
}

void Worker::retryPublishing() {
  for (size_t I = 0; I < Unpublished.size();) {
    UnpublishedResult &U = Unpublished[I];
    if (secondsSince(U.NextTry) < 10) {
      ++I;
      continue;
    }
    U.NextTry = Clock::now();
    if (!publishEverywhere(U.Message.Key, U.Bytes).empty()) {
      ++I;
      continue;
    }
    complete(U.Message, U.Summary);
    Unpublished.erase(Unpublished.begin() + static_cast<long>(I));
  }
}

void Worker::renewLeases() {
  if (secondsSince(LastRenewal) * 1000 < Config.LeaseMs / 3.0)
    return;
  LastRenewal = Clock::now();
  std::map<std::string, std::vector<std::string>> Held; // Arch -> ids.
  for (const std::optional<RunningJob> &S : Slots)
    if (S)
      Held[S->Message.Arch].push_back(S->Message.Id);
  for (const UnpublishedResult &U : Unpublished)
    Held[U.Message.Arch].push_back(U.Message.Id);
  for (const auto &[Arch, Ids] : Held) {
    llvm::Expected<std::vector<std::string>> Still = Queue.renew(Arch, Config.Name, Ids);
    if (!Still) {
      queueTrouble(Still.takeError());
      continue;
    }
    for (std::optional<RunningJob> &S : Slots)
      if (S && S->Message.Arch == Arch && !llvm::is_contained(*Still, S->Message.Id)) {
        say(nameOf(S->Message) + ": another worker took it over (this worker's lease ran "
                                 "out): stopped here");
        S->Process.kill();
        S.reset();
      }
  }
}

bool Worker::done() const {
  bool Idle = Unpublished.empty() &&
              std::none_of(Slots.begin(), Slots.end(), [](const auto &S) { return S.has_value(); });
  return Idle && Config.MaxJobs && Ended >= Config.MaxJobs;
}

void Worker::stop() {
  for (std::optional<RunningJob> &S : Slots) {
    if (!S)
      continue;
    S->Process.kill();
    if (llvm::Error E = Queue.release(S->Message, Config.Name,
                                      "attempt " + std::to_string(S->Message.Deliveries) + " on " +
                                          Config.Name + ": the worker stopped",
                                      Config.LeaseMs))
      llvm::consumeError(std::move(E)); // Then it waits for its lease to run out.
    say(nameOf(S->Message) + ": stopped; back in the queue");
    S.reset();
  }
  for (const UnpublishedResult &U : Unpublished)
    say("warning: " + nameOf(U.Message) +
        ": its result was never published (kept in the local cache; `kopt cache push` uploads "
        "it); the job goes back to the queue after its lease");
}

int Worker::run() {
  if (std::error_code EC = llvm::sys::fs::create_directories(Config.WorkDir + "/jobs")) {
    say("error: cannot create " + Config.WorkDir + "/jobs: " + EC.message());
    return 1;
  }
  struct sigaction Action = {};
  Action.sa_handler = requestStop;
  sigaction(SIGTERM, &Action, nullptr);
  sigaction(SIGINT, &Action, nullptr);
  if (!prepare())
    return StopRequested ? 0 : 1;
  std::vector<std::string> Devices, Remote;
  for (const WorkerDevice &D : Config.Devices)
    Devices.push_back(D.Id + ": " + D.Name + ", " + D.Arch);
  for (const memory::RemoteSpec &S : Config.Publish)
    Remote.push_back(S.display());
  say(Config.Name + " on queue " + Config.Queue.display() + ", " +
      llvm::Twine(Config.Devices.size()) + " device" + (Config.Devices.size() == 1 ? "" : "s") +
      " (" + llvm::join(Devices, "; ") + "), publishing to " + llvm::join(Remote, ", "));
  while (!StopRequested) {
    reap();
    renewLeases();
    retryPublishing();
    if (done()) {
      say("stopping after " + llvm::Twine(Ended) + (Ended == 1 ? " job" : " jobs") +
          " (--max-jobs)");
      return 0;
    }
    bool Busy = !Unpublished.empty() || std::any_of(Slots.begin(), Slots.end(),
                                                    [](const auto &S) { return S.has_value(); });
    if (!Busy && Config.IdleExitSeconds > 0 && secondsSince(LastJob) >= Config.IdleExitSeconds) {
      say(llvm::formatv("stopping: no job for {0:F0} s (--idle-exit)", Config.IdleExitSeconds)
              .str());
      return 0;
    }
    bool AllBusy =
        std::all_of(Slots.begin(), Slots.end(), [](const auto &S) { return S.has_value(); });
    if (AllBusy || (Config.MaxJobs && Taken >= Config.MaxJobs))
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    else
      takeJobs(); // Waits up to a second for a new job.
  }
  say("stopping (signal)");
  stop();
  return 0;
}

} // namespace

int runWorkerLoop(const WorkerConfig &Config, llvm::raw_ostream &Log) {
  StopRequested = 0;
  return Worker(Config, Log).run();
}

} // namespace kopt::driver
