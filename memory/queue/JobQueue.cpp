#include "memory/queue/JobQueue.h"

#include "memory/remote/RemoteBackend.h"

#include <llvm/ADT/StringExtras.h>

#include <map>
#include <set>

namespace kopt::memory {

namespace {

constexpr llvm::StringRef Group = "workers";

// The fields of a stream entry [id, [field, value, ...]]; empty for an entry
// deleted under a pending reference (its fields are nil).
std::map<std::string, std::string> fieldsOf(const RedisReply &Entry) {
  std::map<std::string, std::string> Fields;
  if (!Entry.isArray() || Entry.Elements.size() < 2 || !Entry.Elements[1].isArray())
    return Fields;
  const std::vector<RedisReply> &Pairs = Entry.Elements[1].Elements;
  for (size_t I = 0; I + 1 < Pairs.size(); I += 2)
    Fields[Pairs[I].Text] = Pairs[I + 1].Text;
  return Fields;
}

std::optional<QueuedMessage> messageOf(const RedisReply &Entry, llvm::StringRef Arch) {
  std::map<std::string, std::string> F = fieldsOf(Entry);
  if (F.empty() || !F.count("job"))
    return std::nullopt;
  return QueuedMessage{
      Entry.Elements[0].Text, Arch.str(), F["key"], F["kernel"], F["origin"], F["job"]};
}

llvm::Error unexpected(llvm::StringRef Command) {
  return remoteError(RemoteFailure::Failed, Command + ": unexpected reply");
}

// The milliseconds of a stream id "1700000000000-0".
uint64_t idMilliseconds(llvm::StringRef Id) {
  uint64_t Ms = 0;
  llvm::to_integer(Id.split('-').first, Ms);
  return Ms;
}

// KEYS: keys, stream, archs. ARGV: key, kernel, origin, job, arch, group.
constexpr llvm::StringRef SubmitScript = R"lua(
local state = redis.call('HGET', KEYS[1], ARGV[1])
if state then return {state} end
redis.pcall('XGROUP', 'CREATE', KEYS[2], ARGV[6], '0', 'MKSTREAM')
redis.call('SADD', KEYS[3], ARGV[5])
local id = redis.call('XADD', KEYS[2], '*', 'key', ARGV[1], 'kernel', ARGV[2],
                      'origin', ARGV[3], 'job', ARGV[4])
redis.call('HSET', KEYS[1], ARGV[1], 'queued')
return {'submitted', id}
)lua";

// KEYS: stream, keys, errors, done. ARGV: id, key, group.
constexpr llvm::StringRef CompleteScript = R"lua(
local acked = redis.call('XACK', KEYS[1], ARGV[3], ARGV[1])
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
if acked == 1 then
  redis.call('HDEL', KEYS[2], ARGV[2])
  redis.call('INCR', KEYS[4])
end
return acked
)lua";

// KEYS: stream, errors. ARGV: id, consumer, error, lease ms, group.
constexpr llvm::StringRef ReleaseScript = R"lua(
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return redis.call('XCLAIM', KEYS[1], ARGV[5], ARGV[2], '0', ARGV[1], 'IDLE', ARGV[4], 'JUSTID')
)lua";

// KEYS: stream, keys, errors, dead. ARGV: id, key, kernel, origin, job,
// error, attempts, consumer, group, arch.
constexpr llvm::StringRef DeadLetterScript = R"lua(
if redis.call('XACK', KEYS[1], ARGV[9], ARGV[1]) == 0 then return 0 end
redis.call('XADD', KEYS[4], '*', 'id', ARGV[1], 'key', ARGV[2], 'kernel', ARGV[3],
           'origin', ARGV[4], 'arch', ARGV[10], 'error', ARGV[6], 'attempts', ARGV[7],
           'worker', ARGV[8], 'job', ARGV[5])
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], 'failed')
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
)lua";

// KEYS: stream. ARGV: consumer, group, ids... Renews only the ids whose
// pending entry is still the consumer's.
constexpr llvm::StringRef RenewScript = R"lua(
local claim = {'XCLAIM', KEYS[1], ARGV[2], ARGV[1], '0'}
for i = 3, #ARGV do
  local p = redis.call('XPENDING', KEYS[1], ARGV[2], ARGV[i], ARGV[i], 1)
  if #p == 1 and p[1][2] == ARGV[1] then table.insert(claim, ARGV[i]) end
end
if #claim == 5 then return {} end
table.insert(claim, 'JUSTID')
return redis.call(unpack(claim))
)lua";

} // namespace

JobQueue::JobQueue(QueueSpec S) : Spec(std::move(S)), Connection(Spec.Server) {}

std::string JobQueue::key(llvm::StringRef What) const {
  return "kopt:queue:{" + Spec.Name + "}:" + What.str();
}

std::string JobQueue::streamKey(llvm::StringRef Arch) const { return key(("jobs:" + Arch).str()); }

llvm::Expected<RedisReply> JobQueue::script(llvm::StringRef Lua,
                                            const std::vector<std::string> &Keys,
                                            const std::vector<std::string> &Args) {
  std::string Count = std::to_string(Keys.size());
  std::vector<llvm::StringRef> Command = {"EVAL", Lua, Count};
  Command.insert(Command.end(), Keys.begin(), Keys.end());
  Command.insert(Command.end(), Args.begin(), Args.end());
  return Connection.command(Command);
}

llvm::Expected<SubmitResult> JobQueue::submit(const QueueJob &Job) {
  llvm::Expected<RedisReply> R =
      script(SubmitScript, {key("keys"), streamKey(Job.Arch), key("archs")},
             {Job.Key.Digest, Job.Kernel, Job.Origin, serializeJob(Job), Job.Arch, Group.str()});
  if (!R)
    return R.takeError();
  if (!R->isArray() || R->Elements.empty())
    return unexpected("EVAL");
  llvm::StringRef State = R->Elements[0].Text;
  if (State == "submitted" && R->Elements.size() == 2)
    return SubmitResult{SubmitState::Queued, R->Elements[1].Text};
  if (State == "failed")
    return SubmitResult{SubmitState::FailedBefore, ""};
  return SubmitResult{SubmitState::AlreadyQueued, ""};
}

llvm::Error JobQueue::prepare(llvm::StringRef Arch) {
  llvm::Expected<RedisReply> R =
      Connection.command({"XGROUP", "CREATE", streamKey(Arch), Group, "0", "MKSTREAM"});
  if (!R) {
    RemoteProblem Problem = describeRemoteError(R.takeError());
    if (Problem.Unreachable || !llvm::StringRef(Problem.Message).contains("BUSYGROUP"))
      return remoteError(Problem.Unreachable ? RemoteFailure::Unreachable : RemoteFailure::Failed,
                         Problem.Message);
  }
  if (llvm::Expected<RedisReply> Added = Connection.command({"SADD", key("archs"), Arch}); !Added)
    return Added.takeError();
  return llvm::Error::success();
}

llvm::Expected<unsigned> JobQueue::deliveriesOf(llvm::StringRef Arch, llvm::StringRef Id) {
  llvm::Expected<RedisReply> R =
      Connection.command({"XPENDING", streamKey(Arch), Group, Id, Id, "1"});
  if (!R)
    return R.takeError();
  if (!R->isArray() || R->Elements.size() != 1 || R->Elements[0].Elements.size() != 4)
    return unexpected("XPENDING");
  return static_cast<unsigned>(R->Elements[0].Elements[3].Integer);
}

llvm::Expected<std::optional<QueuedMessage>>
JobQueue::claimStale(llvm::StringRef Arch, llvm::StringRef Consumer, unsigned LeaseMs) {
  std::string Stream = streamKey(Arch), Lease = std::to_string(LeaseMs), Cursor = "0-0";
  // Each call looks at a few pending entries; follow the cursor through them.
  for (int Round = 0; Round < 100; ++Round) {
    llvm::Expected<RedisReply> R =
        Connection.command({"XAUTOCLAIM", Stream, Group, Consumer, Lease, Cursor, "COUNT", "1"});
    if (!R)
      return R.takeError();
    if (!R->isArray() || R->Elements.size() < 2 || !R->Elements[1].isArray())
      return unexpected("XAUTOCLAIM");
    for (const RedisReply &Entry : R->Elements[1].Elements)
      if (std::optional<QueuedMessage> M = messageOf(Entry, Arch)) {
        llvm::Expected<unsigned> Deliveries = deliveriesOf(Arch, M->Id);
        if (!Deliveries)
          return Deliveries.takeError();
        M->Deliveries = *Deliveries;
        return M;
      }
    Cursor = R->Elements[0].Text;
    if (Cursor == "0-0")
      break;
  }
  return std::nullopt;
}

llvm::Expected<std::optional<QueuedMessage>>
JobQueue::readNew(const std::vector<std::string> &Archs, llvm::StringRef Consumer,
                  unsigned WaitMs) {
  std::vector<std::string> Streams;
  for (const std::string &Arch : Archs)
    Streams.push_back(streamKey(Arch));
  std::string Wait = std::to_string(WaitMs);
  std::vector<llvm::StringRef> Command = {"XREADGROUP", "GROUP", Group, Consumer, "COUNT",
                                          "1",          "BLOCK", Wait,  "STREAMS"};
  Command.insert(Command.end(), Streams.begin(), Streams.end());
  Command.insert(Command.end(), Streams.size(), ">");
  llvm::Expected<RedisReply> R = Connection.blockingCommand(Command, WaitMs);
  if (!R)
    return R.takeError();
  if (R->isNil())
    return std::nullopt;
  for (const RedisReply &Stream : R->Elements) {
    if (Stream.Elements.size() != 2)
      return unexpected("XREADGROUP");
    auto It = std::find(Streams.begin(), Streams.end(), Stream.Elements[0].Text);
    if (It == Streams.end())
      return unexpected("XREADGROUP");
    for (const RedisReply &Entry : Stream.Elements[1].Elements)
      if (std::optional<QueuedMessage> M = messageOf(Entry, Archs[It - Streams.begin()]))
        return M;
  }
  return std::nullopt;
}

llvm::Expected<std::vector<std::string>> JobQueue::renew(llvm::StringRef Arch,
                                                         llvm::StringRef Consumer,
                                                         const std::vector<std::string> &Ids) {
  std::vector<std::string> Args = {Consumer.str(), Group.str()};
  Args.insert(Args.end(), Ids.begin(), Ids.end());
  llvm::Expected<RedisReply> R = script(RenewScript, {streamKey(Arch)}, Args);
  if (!R)
    return R.takeError();
  std::vector<std::string> Held;
  for (const RedisReply &Id : R->Elements)
    Held.push_back(Id.Text);
  return Held;
}

llvm::Expected<bool> JobQueue::complete(const QueuedMessage &M) {
  llvm::Expected<RedisReply> R =
      script(CompleteScript, {streamKey(M.Arch), key("keys"), key("errors"), key("done")},
             {M.Id, M.Key, Group.str()});
  if (!R)
    return R.takeError();
  return R->Integer == 1;
}

llvm::Error JobQueue::release(const QueuedMessage &M, llvm::StringRef Consumer,
                              llvm::StringRef Error, unsigned LeaseMs) {
  llvm::Expected<RedisReply> R =
      script(ReleaseScript, {streamKey(M.Arch), key("errors")},
             {M.Id, Consumer.str(), Error.str(), std::to_string(LeaseMs), Group.str()});
  return R ? llvm::Error::success() : R.takeError();
}

llvm::Error JobQueue::deadLetter(const QueuedMessage &M, llvm::StringRef Consumer,
                                 llvm::StringRef Error) {
  llvm::Expected<RedisReply> R =
      script(DeadLetterScript, {streamKey(M.Arch), key("keys"), key("errors"), key("dead")},
             {M.Id, M.Key, M.Kernel, M.Origin, M.JobText, Error.str(), std::to_string(M.Deliveries),
              Consumer.str(), Group.str(), M.Arch});
  return R ? llvm::Error::success() : R.takeError();
}

llvm::Expected<std::string> JobQueue::lastError(const QueuedMessage &M) {
  llvm::Expected<RedisReply> R = Connection.command({"HGET", key("errors"), M.Id});
  if (!R)
    return R.takeError();
  return R->Text;
}

llvm::Expected<QueueStatus> JobQueue::status(size_t MaxListed) {
  QueueStatus S;
  std::string Count = std::to_string(MaxListed);
  llvm::Expected<RedisReply> Time = Connection.command({"TIME"});
  if (!Time)
    return Time.takeError();
  if (!Time->isArray() || Time->Elements.size() != 2)
    return unexpected("TIME");
  uint64_t NowMs = 0;
  llvm::to_integer(Time->Elements[0].Text, NowMs);
  NowMs *= 1000;
  auto Age = [&](llvm::StringRef Id) {
    uint64_t Ms = idMilliseconds(Id);
    return NowMs > Ms ? (NowMs - Ms) / 1000 : 0;
  };
  llvm::Expected<RedisReply> Archs = Connection.command({"SMEMBERS", key("archs")});
  if (!Archs)
    return Archs.takeError();
  std::set<std::string> Sorted;
  for (const RedisReply &A : Archs->Elements)
    Sorted.insert(A.Text);
  std::vector<QueueStatus::Job> Waiting;
  for (const std::string &Arch : Sorted) {
    std::string Stream = streamKey(Arch);
    llvm::Expected<RedisReply> Length = Connection.command({"XLEN", Stream});
    llvm::Expected<RedisReply> Summary =
        Length ? Connection.command({"XPENDING", Stream, Group}) : Length.takeError();
    llvm::Expected<RedisReply> Held =
        Summary ? Connection.command({"XPENDING", Stream, Group, "-", "+", Count})
                : Summary.takeError();
    llvm::Expected<RedisReply> Entries =
        Held ? Connection.command({"XRANGE", Stream, "-", "+", "COUNT", Count}) : Held.takeError();
    if (!Entries)
      return Entries.takeError();
    if (!Summary->isArray() || Summary->Elements.empty())
      return unexpected("XPENDING");
    uint64_t Running = static_cast<uint64_t>(Summary->Elements[0].Integer);
    S.Running += Running;
    S.Pending += static_cast<uint64_t>(Length->Integer) - Running;
    std::map<std::string, std::pair<std::string, unsigned>> Holders; // Id -> consumer, deliveries.
    for (const RedisReply &P : Held->Elements)
      if (P.Elements.size() == 4)
        Holders[P.Elements[0].Text] = {P.Elements[1].Text,
                                       static_cast<unsigned>(P.Elements[3].Integer)};
    for (const RedisReply &Entry : Entries->Elements) {
      std::map<std::string, std::string> F = fieldsOf(Entry);
      QueueStatus::Job J;
      J.Id = Entry.Elements[0].Text;
      J.Arch = Arch;
      J.Kernel = F["kernel"];
      J.Origin = F["origin"];
      J.AgeSeconds = Age(J.Id);
      auto H = Holders.find(J.Id);
      if (H == Holders.end()) {
        J.State = "pending";
        Waiting.push_back(std::move(J));
        continue;
      }
      J.State = "running";
      J.Worker = H->second.first;
      J.Attempts = H->second.second;
      if (J.Attempts > 1) {
        llvm::Expected<RedisReply> E = Connection.command({"HGET", key("errors"), J.Id});
        if (!E)
          return E.takeError();
        J.Error = E->Text;
      }
      S.Jobs.push_back(std::move(J));
    }
  }
  S.Jobs.insert(S.Jobs.end(), Waiting.begin(), Waiting.end());
  llvm::Expected<RedisReply> Done = Connection.command({"GET", key("done")});
  llvm::Expected<RedisReply> Failed =
      Done ? Connection.command({"XLEN", key("dead")}) : Done.takeError();
  llvm::Expected<RedisReply> Dead =
      Failed ? Connection.command({"XREVRANGE", key("dead"), "+", "-", "COUNT", Count})
             : Failed.takeError();
  if (!Dead)
    return Dead.takeError();
  llvm::to_integer(Done->Text, S.Done);
  S.Failed = static_cast<uint64_t>(Failed->Integer);
  for (const RedisReply &Entry : Dead->Elements) {
    std::map<std::string, std::string> F = fieldsOf(Entry);
    QueueStatus::Job J;
    J.Id = F["id"];
    J.Kernel = F["kernel"];
    J.Origin = F["origin"];
    J.State = "failed";
    J.Worker = F["worker"];
    J.Error = F["error"];
    J.AgeSeconds = Age(J.Id);
    J.Arch = F["arch"];
    llvm::to_integer(F["attempts"], J.Attempts);
    S.Jobs.push_back(std::move(J));
  }
  return S;
}

} // namespace kopt::memory
