#include "memory/remote/RedisConnection.h"

#include "memory/remote/RemoteBackend.h"

#include <hiredis/hiredis.h>

#include <sys/time.h>

#include <algorithm>
#include <chrono>
#include <memory>

namespace kopt::memory {

namespace {

#define KOPT_STRINGIFY2(X) #X
#define KOPT_STRINGIFY(X) KOPT_STRINGIFY2(X)
#define HIREDIS_VERSION_TEXT KOPT_STRINGIFY(HIREDIS_MAJOR) "." KOPT_STRINGIFY(HIREDIS_MINOR)

using Clock = std::chrono::steady_clock;

timeval toTimeval(std::chrono::microseconds Us) {
  return {static_cast<time_t>(Us.count() / 1000000),
          static_cast<suseconds_t>(Us.count() % 1000000)};
}

struct ReplyDeleter {
  void operator()(redisReply *R) const { freeReplyObject(R); }
};

RedisReply copyReply(const redisReply &R) {
  RedisReply Out;
  switch (R.type) {
  case REDIS_REPLY_INTEGER:
    Out.Kind = RedisReply::Type::Integer;
    Out.Integer = R.integer;
    break;
  case REDIS_REPLY_STRING:
  case REDIS_REPLY_STATUS:
    Out.Kind = R.type == REDIS_REPLY_STRING ? RedisReply::Type::String : RedisReply::Type::Status;
    Out.Text.assign(R.str, R.len);
    break;
  case REDIS_REPLY_ARRAY:
    Out.Kind = RedisReply::Type::Array;
    for (size_t I = 0; I < R.elements; ++I)
      Out.Elements.push_back(copyReply(*R.element[I]));
    break;
  default: // REDIS_REPLY_NIL; errors are handled before.
    break;
  }
  return Out;
}

} // namespace

RedisConnection::RedisConnection(RemoteSpec S) : Spec(std::move(S)) {}

RedisConnection::~RedisConnection() { drop(); }

void RedisConnection::drop() {
  if (Context)
    redisFree(Context);
  Context = nullptr;
}

llvm::Error RedisConnection::connect(Clock::time_point Deadline) {
  if (Context)
    return llvm::Error::success();
  if (Spec.Kind == RemoteSpec::Scheme::Rediss)
    return remoteError(RemoteFailure::Failed,
                       "rediss:// needs hiredis 1.0 or newer with TLS; this kopt is built "
                       "with hiredis " HIREDIS_VERSION_TEXT);
  auto Left = std::chrono::duration_cast<std::chrono::microseconds>(Deadline - Clock::now());
  auto Connect =
      std::min<std::chrono::microseconds>(std::chrono::milliseconds(Spec.ConnectTimeoutMs), Left);
  Context = redisConnectWithTimeout(Spec.Host.c_str(), static_cast<int>(Spec.Port),
                                    toTimeval(std::max(Connect, std::chrono::microseconds(1))));
  if (!Context || Context->err) {
    std::string Why = Context ? Context->errstr : "out of memory";
    drop();
    return remoteError(RemoteFailure::Unreachable, "cannot connect: " + Why);
  }
  if (!Spec.Password.empty()) {
    std::vector<llvm::StringRef> Auth = {"AUTH"};
    if (!Spec.User.empty())
      Auth.push_back(Spec.User);
    Auth.push_back(Spec.Password);
    // The reply may echo nothing secret, but the command is never quoted.
    if (llvm::Expected<RedisReply> R = send(Auth, Deadline); !R) {
      drop();
      return llvm::handleErrors(R.takeError(), [](const RemoteError &E) {
        return remoteError(E.Kind, "authentication failed: " + E.Message);
      });
    }
  }
  if (Spec.Database)
    if (llvm::Expected<RedisReply> R = send({"SELECT", std::to_string(Spec.Database)}, Deadline);
        !R) {
      drop();
      return R.takeError();
    }
  return llvm::Error::success();
}

llvm::Expected<RedisReply> RedisConnection::command(llvm::ArrayRef<llvm::StringRef> Args) {
  return commandBy(Args, Clock::now() + std::chrono::milliseconds(Spec.OperationTimeoutMs));
}

llvm::Expected<RedisReply> RedisConnection::blockingCommand(llvm::ArrayRef<llvm::StringRef> Args,
                                                            unsigned WaitMs) {
  return commandBy(Args,
                   Clock::now() + std::chrono::milliseconds(Spec.OperationTimeoutMs + WaitMs));
}

llvm::Expected<RedisReply> RedisConnection::commandBy(llvm::ArrayRef<llvm::StringRef> Args,
                                                      Clock::time_point Deadline) {
  if (llvm::Error E = connect(Deadline))
    return E;
  return send(Args, Deadline);
}

bool RedisConnection::armTimeout(Clock::time_point Deadline) {
  auto Left = std::chrono::duration_cast<std::chrono::microseconds>(Deadline - Clock::now());
  return Left.count() > 0 && redisSetTimeout(Context, toTimeval(Left)) == REDIS_OK;
}

llvm::Error RedisConnection::lost(llvm::StringRef Command, Clock::time_point Deadline) {
  std::string Why = Clock::now() >= Deadline ? "no reply within the operation timeout (" +
                                                   std::to_string(Spec.OperationTimeoutMs) + " ms)"
                                             : std::string(Context->errstr);
  drop();
  return remoteError(RemoteFailure::Unreachable, Command + ": " + Why);
}

// kopt drives hiredis's reader itself rather than redisCommand(), so that an
// operation ends at its deadline (hiredis's socket timeout only bounds each
// read) and a reply is refused once it grows past MaxRemoteReplyBytes
// (hiredis would read a bulk string of any size whole).
llvm::Expected<RedisReply> RedisConnection::send(llvm::ArrayRef<llvm::StringRef> Args,
                                                 Clock::time_point Deadline) {
  std::vector<const char *> Argv;
  std::vector<size_t> Lengths;
  for (llvm::StringRef A : Args) {
    Argv.push_back(A.data());
    Lengths.push_back(A.size());
  }
  if (redisAppendCommandArgv(Context, static_cast<int>(Argv.size()), Argv.data(), Lengths.data()) !=
      REDIS_OK)
    return lost(Args.front(), Deadline);
  for (int Written = 0; !Written;)
    if (!armTimeout(Deadline) || redisBufferWrite(Context, &Written) != REDIS_OK)
      return lost(Args.front(), Deadline);
  void *Raw = nullptr;
  uint64_t Received = 0;
  while (true) {
    if (redisGetReplyFromReader(Context, &Raw) != REDIS_OK)
      return lost(Args.front(), Deadline);
    if (Raw)
      break;
    if (Received > MaxRemoteReplyBytes) {
      drop(); // The rest of the reply is still on its way.
      return replyTooLarge(Args.front());
    }
    size_t Before = Context->reader->len;
    if (!armTimeout(Deadline) || redisBufferRead(Context) != REDIS_OK)
      return lost(Args.front(), Deadline);
    Received += Context->reader->len - Before;
  }
  std::unique_ptr<redisReply, ReplyDeleter> R(static_cast<redisReply *>(Raw));
  if (R->type == REDIS_REPLY_ERROR)
    return remoteError(RemoteFailure::Failed,
                       Args.front() + ": " + llvm::StringRef(R->str, R->len));
  return copyReply(*R);
}

} // namespace kopt::memory
